import { defineTool } from '../../tool-definition.js';
import { memoryExample } from './example.js';
import { runMemory } from './memory.js';
import { MemoryRequest } from './schema.js';
import { memoryWorkload } from './workload.js';

export const memoryTool = defineTool<MemoryRequest>({
  id: 'memory',
  operationId: 'memory',
  name: 'Memory relevance',
  method: 'POST',
  path: '/api/memory',
  promise:
    'Ranks supplied memories against an objective under a token budget; compares query-free salience with objective-conditioned relevance',
  schema: MemoryRequest,
  example: memoryExample,
  workload: memoryWorkload,
  run: runMemory,
  costMsPerKiB: 0.4,
});
