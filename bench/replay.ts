/**
 * Trajectory replay benchmark: server time per request beside parse + validate of the same body, and
 * requests per second beside a bare route (bench/lib/tool-kernel.ts).
 *
 *   npx tsx bench/replay.ts     (writes bench/results/replay.md)
 */
import { replayBody } from './lib/memory-replay-safepatch-workloads.js';
import { runToolBench } from './lib/tool-kernel.js';

await runToolBench({
  id: 'replay',
  name: 'replay',
  title: 'Trajectory replay',
  workload: '5000 events (SAVE/LOAD/CHECK/ANSWER/SKETCH, verdicts, model/observation), 50 notes',
  body: replayBody(),
  expected: 'ACCEPTED',
});
