import { defineTool } from '../../tool-types.js';
import { memoryExample } from './example.js';
import { runMemory } from './memory.js';
import { MemoryRequest } from './schema.js';

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
  run: runMemory,
  // 1000 memories of a few hundred words: tokenising, BM25 and a 1000-item receipt are several milliseconds.
  placement: 'pool',
});
