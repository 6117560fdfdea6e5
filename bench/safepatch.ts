/**
 * Safe patch benchmark: server time per request beside parse + validate of the same body, and
 * requests per second beside a bare route (bench/lib/tool-kernel.ts).
 *
 *   npx tsx bench/safepatch.ts     (writes bench/results/safepatch.md)
 */
import { safepatchBody } from './lib/memory-replay-safepatch-workloads.js';
import { runToolBench } from './lib/tool-kernel.js';

await runToolBench({
  id: 'safepatch',
  name: 'safepatch',
  title: 'Safe patch',
  workload: '200,000-character document (~400 sections, lists, fences, setext), 50 operations',
  body: safepatchBody(),
  expected: 'APPLIED',
});
