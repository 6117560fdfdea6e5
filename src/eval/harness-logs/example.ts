/** The /api/examples entry of POST /api/gate/logs: the parts to send, as text, and a curl line. */
const rows = (passes: boolean[][]): string =>
  passes
    .flatMap((runs, i) =>
      runs.map((passed, r) => JSON.stringify({ item_id: `q-0${i + 1}`, passed, run: r + 1 })),
    )
    .join('\n') + '\n';

const F = false;
const T = true;

export const gateLogsExample = {
  content_type: 'multipart/form-data',
  parts: {
    // Any accepted log format; here the gate's own JSONL (item_id, passed, run), three runs per item.
    baseline: rows([
      [F, F, F],
      [F, F, F],
      [F, F, T],
      [F, F, F],
      [F, F, F],
      [F, F, F],
      [T, T, T],
    ]),
    candidate: rows([
      [T, T, T],
      [T, T, T],
      [T, T, T],
      [T, T, F],
      [T, T, T],
      [T, T, T],
      [T, T, T],
    ]),
    options: { errors: 'fail', policy: { confidence_alpha: 0.05, max_regressions: 0, min_gains: 1 } },
  },
  curl: 'curl -F baseline=@baseline.eval -F candidate=@candidate.eval -F \'options={"scorer":"match"}\' http://localhost:8080/api/gate/logs',
};
