import { defineTool } from '../../tool-definition.js';
import { replayExample } from './example.js';
import { runReplay } from './replay.js';
import { ReplayRequest } from './schema.js';
import { replayWorkload } from './workload.js';

export const replayTool = defineTool<ReplayRequest>({
  id: 'replay',
  operationId: 'replay',
  name: 'Replay console',
  method: 'POST',
  path: '/api/replay',
  promise:
    'Turns emulator events into checkpoints, rewinds, a branch tree, notes, a timeline and a verified final answer',
  schema: ReplayRequest,
  example: replayExample,
  workload: replayWorkload,
  run: runReplay,
  costMsPerKiB: 0.4,
});
