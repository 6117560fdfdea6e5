/** Test fixtures: logs written from each harness's fields (see each reader's header). */
import { strToU8, zipSync } from 'fflate';

export interface Outcome {
  id: string;
  /** One entry per run: true pass, false fail, 'error' an errored run. */
  runs: (boolean | 'error')[];
  input?: string;
}

const enc = (v: unknown): Uint8Array => strToU8(JSON.stringify(v));

export function inspectSample(o: Outcome, epoch: number, scorer = 'match'): Record<string, unknown> {
  const r = o.runs[epoch - 1]!;
  return {
    id: o.id,
    epoch,
    input: o.input ?? `question ${o.id}`,
    target: 'x',
    messages: [{ role: 'user', content: o.input ?? `question ${o.id}` }],
    scores: r === 'error' ? {} : { [scorer]: { value: r ? 'C' : 'I', answer: 'x' } },
    ...(r === 'error' ? { error: { message: 'boom', traceback: '' } } : {}),
  };
}

const evalSpec = (model: string) => ({
  task: 'arith',
  model,
  packages: { inspect_ai: '0.3.140' },
});

/** A newer-style .eval: header.json, _journal/start.json, summaries.json, samples/<id>_epoch_<n>.json. */
export function inspectEval(outcomes: Outcome[], model = 'openai/m1', scorer = 'match'): Uint8Array {
  const files: Record<string, Uint8Array> = {
    '_journal/start.json': enc({ version: 2, eval: evalSpec(model), plan: {} }),
  };
  for (const o of outcomes)
    o.runs.forEach((_r, i) => {
      files[`samples/${o.id}_epoch_${i + 1}.json`] = enc(inspectSample(o, i + 1, scorer));
    });
  files['summaries.json'] = enc([]);
  files['header.json'] = enc({ version: 2, status: 'success', eval: evalSpec(model), results: {} });
  return zipSync(files);
}

export function inspectJson(outcomes: Outcome[], model = 'openai/m1'): Uint8Array {
  const samples = outcomes.flatMap((o) => o.runs.map((_r, i) => inspectSample(o, i + 1)));
  return enc({ version: 2, status: 'success', eval: evalSpec(model), plan: {}, results: {}, samples });
}

export function lmEvalJsonl(outcomes: Outcome[], filters = ['none'], metric = 'acc'): Uint8Array {
  const rows: string[] = [];
  for (const f of filters)
    for (const [i, o] of outcomes.entries())
      rows.push(
        JSON.stringify({
          doc_id: Number(o.id.replace(/\D/g, '')) || i,
          doc: { q: o.input ?? o.id },
          target: '1',
          arguments: [],
          resps: [],
          filtered_resps: [],
          filter: f,
          metrics: [metric],
          doc_hash: `h-${o.input ?? o.id}`,
          prompt_hash: 'p',
          target_hash: 't',
          [metric]: o.runs[0] === true ? 1.0 : 0.0,
        }),
      );
  return strToU8(rows.join('\n') + '\n');
}

export function openAiEvalsJsonl(outcomes: Outcome[]): Uint8Array {
  const rows = [
    JSON.stringify({ spec: { eval_name: 'arith.dev.v0', completion_fns: ['gpt-x'], run_id: 'r1' } }),
    JSON.stringify({ final_report: { accuracy: 0.5 } }),
    ...outcomes.map((o, i) =>
      JSON.stringify({
        run_id: 'r1',
        event_id: i,
        sample_id: o.id,
        type: 'match',
        data: { correct: o.runs[0] === true, expected: 'a', picked: 'b' },
        created_by: '',
        created_at: '2024-01-01 00:00:00',
      }),
    ),
  ];
  return strToU8(rows.join('\n') + '\n');
}

export function helmStats(outcomes: Outcome[]): Uint8Array {
  return enc(
    outcomes.flatMap((o) =>
      o.runs.map((r, trial) => ({
        instance_id: o.id,
        train_trial_index: trial,
        perturbation: null,
        stats: [
          {
            name: { name: 'exact_match', split: 'test' },
            count: 1,
            sum: r === true ? 1 : 0,
            mean: r === true ? 1 : 0,
          },
          { name: { name: 'num_output_tokens', split: 'test' }, count: 1, sum: 7, mean: 7 },
        ],
      })),
    ),
  );
}

export function deepEvalRun(outcomes: Outcome[]): Uint8Array {
  return enc({
    testFile: 'test_arith.py',
    testCases: outcomes.map((o, i) => ({
      name: o.id,
      input: o.input ?? o.id,
      actualOutput: 'x',
      success: o.runs[0] === true,
      metricsData: [
        {
          name: 'Answer Relevancy',
          threshold: 0.5,
          success: o.runs[0] === true,
          score: o.runs[0] === true ? 0.9 : 0.1,
          ...(o.runs[0] === 'error' ? { error: 'timeout' } : {}),
        },
      ],
      order: i,
    })),
    conversationalTestCases: [],
  });
}

export function promptfooOutput(
  outcomes: Outcome[],
  pairs: { provider: string; prompt: string }[],
): Uint8Array {
  const results = [];
  for (const p of pairs)
    for (const o of outcomes)
      for (const r of o.runs)
        results.push({
          promptId: p.prompt,
          promptIdx: 0,
          testIdx: results.length,
          provider: { id: p.provider, label: '' },
          prompt: { raw: 'x', label: p.prompt },
          testCase: { description: o.id, vars: { q: o.input ?? o.id } },
          vars: { q: o.input ?? o.id },
          success: r === true,
          score: r === true ? 1 : 0,
          failureReason: r === 'error' ? 2 : r ? 0 : 1,
          ...(r === 'error' ? { error: 'provider failed' } : {}),
        });
  return enc({
    evalId: 'eval-1',
    results: { version: 3, timestamp: 't', prompts: [], results, stats: {} },
    config: {},
    metadata: { promptfooVersion: '0.123.1' },
  });
}

export function cohortMap(outcomes: Outcome[]): Uint8Array {
  return enc(Object.fromEntries(outcomes.map((o) => [o.id, o.runs[0] === true])));
}

export function cohortCsv(outcomes: Outcome[]): Uint8Array {
  const rows = ['item_id,passed,run'];
  for (const o of outcomes) o.runs.forEach((r, i) => rows.push(`"${o.id}",${r === true},${i + 1}`));
  return strToU8(rows.join('\n') + '\n');
}
