/**
 * Memory ranking benchmark: server time per request beside parse + validate of the same body, and
 * requests per second beside a bare route (bench/lib/tool-kernel.ts).
 *
 *   npx tsx bench/memory.ts     (writes bench/results/memory.md)
 */
import { memoryBody } from './lib/memory-replay-safepatch-workloads.js';
import { runToolBench } from './lib/tool-kernel.js';

await runToolBench({
  id: 'memory',
  name: 'memory',
  title: 'Memory ranking',
  workload: '1000 memories (10-50 words, 1-4 entities), causal question, budget 400',
  body: memoryBody(),
  expected: 'SELECTED',
});
