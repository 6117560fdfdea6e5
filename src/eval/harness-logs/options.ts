/** The options of a logs gate (the `options` part, or the CLI's flags). */
import { Type, type Static } from 'typebox';
import { Policy, RetainedProbe } from '../tools/gate/schema.js';

const Name = Type.String({ minLength: 1, maxLength: 200 });

export const LogsGateOptions = Type.Object(
  {
    scorer: Type.Optional({
      ...Name,
      description: 'Inspect AI: the scorer whose value decides (needed when a log has several)',
    }),
    metric: Type.Optional({
      ...Name,
      description: 'lm-evaluation-harness metric (acc, exact_match, ...) or HELM stat name',
    }),
    filter: Type.Optional({
      ...Name,
      description: 'lm-evaluation-harness filter (needed when rows repeat per filter)',
    }),
    threshold: Type.Number({ default: 1, description: 'A numeric score passes when >= threshold' }),
    errors: Type.Union([Type.Literal('fail'), Type.Literal('exclude')], {
      default: 'fail',
      description: 'Errored runs count as failures (fail) or are left out (exclude)',
    }),
    baseline_select: Type.Optional({
      ...Name,
      description: 'promptfoo: provider id, prompt id/label, or "provider|prompt" for the baseline',
    }),
    candidate_select: Type.Optional({ ...Name, description: 'promptfoo: the same for the candidate' }),
    baseline_name: Type.Optional(Name),
    candidate_name: Type.Optional(Name),
    seed: Type.Integer({
      minimum: 0,
      maximum: 2 ** 32 - 1,
      default: 1,
      description: 'Monte Carlo seed (used only when the exact test cannot run)',
    }),
    policy: Policy,
    retained_probe: Type.Optional(RetainedProbe),
  },
  { additionalProperties: false },
);

export type LogsGateOptions = Static<typeof LogsGateOptions>;

/** What one reader needs. */
export interface ReadOptions {
  scorer?: string;
  metric?: string;
  filter?: string;
  threshold: number;
  select?: string;
  /** Keep each item's input text (for the exposure audit). */
  keep_inputs?: boolean;
}

export function readOptionsFor(
  options: LogsGateOptions,
  side: 'baseline' | 'candidate',
  keepInputs = false,
): ReadOptions {
  const select = side === 'baseline' ? options.baseline_select : options.candidate_select;
  return {
    threshold: options.threshold,
    ...(keepInputs ? { keep_inputs: true } : {}),
    ...(options.scorer !== undefined ? { scorer: options.scorer } : {}),
    ...(options.metric !== undefined ? { metric: options.metric } : {}),
    ...(options.filter !== undefined ? { filter: options.filter } : {}),
    ...(select !== undefined ? { select } : {}),
  };
}
