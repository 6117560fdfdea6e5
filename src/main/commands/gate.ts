/**
 * `gate BASELINE CANDIDATE [options]`: the promotion gate on two harness logs, locally (the
 * same code as POST /api/gate/logs) or against a service with --url. Prints a short table for
 * a CI log, the receipt with --json, Markdown for a job summary with --summary FILE.
 * Exit codes: 0 PASS, 1 BLOCK, 2 HOLD, 3 bad input (or no receipt).
 */
import { openAsBlob } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import type { AppError } from '../../core/errors.js';
import type { Receipt } from '../../core/receipt.js';
import { exposureInput, gateLogs, parseLogsGateOptions } from '../../eval/harness-logs/logs-gate-receipt.js';
import { fileInput } from '../../eval/repositories/log-files.js';
import { gateSummaryMarkdown, gateTable } from '../../eval/harness-logs/report.js';
import type { Command } from './command.js';
import { optionNotANumber, remoteGateRefused } from '../../eval/errors.js';

const EXIT = { PASS: 0, BLOCK: 1, HOLD: 2 } as Record<string, number>;
const BAD_INPUT = 3;

export const GATE_HELP = `usage: cli gate BASELINE CANDIDATE [options]

Gates CANDIDATE against BASELINE from two evaluation-harness logs (Inspect AI .eval/.json,
lm-evaluation-harness samples_*.jsonl, promptfoo output JSON, OpenAI evals JSONL, HELM
per_instance_stats.json, DeepEval test runs, or gate cohorts); the format is detected.

options:
  --scorer NAME            Inspect AI scorer (when a log has several)
  --metric NAME            lm-evaluation-harness metric / HELM stat / DeepEval metric
  --filter NAME            lm-evaluation-harness filter
  --threshold N            a numeric score passes when >= N (default 1)
  --errors fail|exclude    errored runs count as failures (default) or are left out
  --baseline-select S      promptfoo: provider, prompt id/label, or provider|prompt
  --candidate-select S     the same for the candidate
  --alpha N                significance level of the one-sided test (default 0.05)
  --max-regressions N      regressions allowed (default 0)
  --min-gains N            gains required (default 1)
  --seed N                 Monte Carlo seed (used only when the exact test cannot run)
  --exposure FILE          declared exposure (JSON rows or JSONL, as the leakage tool's): gate
                           the full and the clean cohort; the verdict (and exit code) is the
                           clean cohort's, the contamination-adjusted one
  --url URL                run on a service (POST URL/api/gate/logs) instead of locally
  --json                   print the receipt (JSON) instead of the table
  --summary FILE           also write a Markdown summary (e.g. $GITHUB_STEP_SUMMARY)

exit codes: 0 PASS, 1 BLOCK, 2 HOLD, 3 bad input (unreadable log, bad option, no receipt)
`;

function optionsFrom(values: Record<string, string | boolean | undefined>): Record<string, unknown> {
  const num = (k: string): number | undefined => {
    const v = values[k];
    if (v === undefined) return undefined;
    const n = Number(v);
    if (typeof v !== 'string' || v.trim() === '' || !Number.isFinite(n)) throw optionNotANumber(k, v);
    return n;
  };
  const str = (k: string): string | undefined => (typeof values[k] === 'string' ? values[k] : undefined);
  const policy = Object.fromEntries(
    Object.entries({
      confidence_alpha: num('alpha'),
      max_regressions: num('max-regressions'),
      min_gains: num('min-gains'),
    }).filter(([, v]) => v !== undefined),
  );
  const options: Record<string, unknown> = {
    scorer: str('scorer'),
    metric: str('metric'),
    filter: str('filter'),
    threshold: num('threshold'),
    errors: str('errors'),
    baseline_select: str('baseline-select'),
    candidate_select: str('candidate-select'),
    seed: num('seed'),
    policy,
  };
  return Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
}

async function remote(
  url: string,
  files: { baseline: string; candidate: string; exposure: string | undefined },
  options: unknown,
): Promise<string> {
  const form = new FormData();
  form.append('baseline', await openAsBlob(files.baseline), files.baseline);
  form.append('candidate', await openAsBlob(files.candidate), files.candidate);
  form.append('options', new Blob([JSON.stringify(options)], { type: 'application/json' }));
  if (files.exposure) form.append('exposure', await openAsBlob(files.exposure), files.exposure);
  const res = await fetch(new URL('/api/gate/logs', url), { method: 'POST', body: form });
  const text = await res.text();
  if (res.ok) return text;
  let detail = text.slice(0, 2000);
  try {
    const problem = JSON.parse(text) as { detail?: string; errors?: { path: string; message: string }[] };
    detail = [problem.detail, ...(problem.errors ?? []).map((e) => `  ${e.path}: ${e.message}`)].join('\n');
  } catch {
    // not a problem document: print the start of the body
  }
  throw remoteGateRefused(res.status, detail);
}

export const gateCommand: Command = {
  name: 'gate',
  summary: 'promotion gate on two harness logs; exit 0 PASS, 1 BLOCK, 2 HOLD, 3 bad input',
  usage:
    'gate BASELINE CANDIDATE [--scorer|--metric|--filter ...] [--exposure FILE] [--url URL] [--json] [--summary FILE]',
  async run(argv) {
    let parsed;
    try {
      parsed = parseArgs({
        args: argv,
        allowPositionals: true,
        options: {
          scorer: { type: 'string' },
          metric: { type: 'string' },
          filter: { type: 'string' },
          threshold: { type: 'string' },
          errors: { type: 'string' },
          'baseline-select': { type: 'string' },
          'candidate-select': { type: 'string' },
          alpha: { type: 'string' },
          'max-regressions': { type: 'string' },
          'min-gains': { type: 'string' },
          seed: { type: 'string' },
          exposure: { type: 'string' },
          url: { type: 'string' },
          json: { type: 'boolean' },
          summary: { type: 'string' },
          help: { type: 'boolean', short: 'h' },
        },
      });
    } catch (err) {
      process.stderr.write(`${(err as Error).message}\n\n${GATE_HELP}`);
      return BAD_INPUT;
    }
    const { values, positionals } = parsed;
    if (values.help) {
      process.stdout.write(GATE_HELP);
      return 0;
    }
    if (positionals.length !== 2) {
      process.stderr.write(`gate takes two files, BASELINE and CANDIDATE.\n\n${GATE_HELP}`);
      return BAD_INPUT;
    }
    const [baseline, candidate] = positionals as [string, string];
    try {
      const raw = optionsFrom(values);
      let text: string;
      if (values.url) {
        text = await remote(values.url, { baseline, candidate, exposure: values.exposure }, raw);
      } else {
        const options = parseLogsGateOptions(raw);
        const exposure = values.exposure
          ? exposureInput(await readFile(values.exposure, 'utf8'), values.exposure)
          : undefined;
        text = (await gateLogs(await fileInput(baseline), await fileInput(candidate), options, exposure))
          .text;
      }
      const receipt = JSON.parse(text) as Receipt;
      process.stdout.write(values.json ? `${text}\n` : gateTable(receipt));
      if (values.summary) await writeFile(values.summary, gateSummaryMarkdown(receipt), { flag: 'a' });
      return EXIT[receipt.verdict ?? ''] ?? BAD_INPUT;
    } catch (err) {
      const e = err as AppError & { errors?: { path: string; message: string }[] };
      const lines = [e.message, ...(e.errors ?? []).map((x) => `  ${x.path || '/'}: ${x.message}`)];
      process.stderr.write(`gate: ${lines.join('\n')}\n`);
      return BAD_INPUT;
    }
  },
};
