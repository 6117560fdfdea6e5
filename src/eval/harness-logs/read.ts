/** Reads one log: detect its format, run that format's reader. */
import type { FormatId, LogCohort } from './cohort.js';
import { readDeepEval } from './deepeval.js';
import { detectFormat } from './detect.js';
import { readHelm } from './helm.js';
import { readInspectEval, readInspectJson } from './inspect-ai.js';
import { readLmEval } from './lm-eval.js';
import { readCohortCsv, readCohortJsonl, readCohortMap } from './gate-formats.js';
import { readOpenAiEvals } from './openai-evals.js';
import type { ReadOptions } from './options.js';
import { readPromptfoo } from './promptfoo.js';
import type { LogSource } from './source.js';

const READERS: Record<FormatId, (source: LogSource, options: ReadOptions) => Promise<LogCohort>> = {
  'inspect-eval': readInspectEval,
  'inspect-json': readInspectJson,
  'lm-eval-harness': readLmEval,
  promptfoo: readPromptfoo,
  'openai-evals': readOpenAiEvals,
  helm: readHelm,
  deepeval: readDeepEval,
  'cohort-map': readCohortMap,
  'cohort-jsonl': readCohortJsonl,
  'cohort-csv': readCohortCsv,
};

export async function readLog(source: LogSource, options: ReadOptions): Promise<LogCohort> {
  return READERS[detectFormat(source)](source, options);
}
