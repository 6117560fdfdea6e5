import { defineTool } from '../../tool-definition.js';
import { safepatchExample } from './example.js';
import { runSafepatch } from './safepatch.js';
import { SafepatchRequest } from './schema.js';
import { safepatchWorkload } from './workload.js';

export const safepatchTool = defineTool<SafepatchRequest>({
  id: 'safepatch',
  operationId: 'safepatch',
  name: 'SafePatch',
  method: 'POST',
  path: '/api/safepatch',
  promise:
    'Section-scoped Markdown replacement under conservation checks, all or nothing, with a unified diff',
  schema: SafepatchRequest,
  example: safepatchExample,
  workload: safepatchWorkload,
  run: runSafepatch,
  costMsPerKiB: 0.6,
});
