import { defineTool } from '../../tool-definition.js';
import { inspectExample } from './example.js';
import { runInspect } from './inspect.js';
import { InspectRequest } from './schema.js';
import { inspectWorkload } from './workload.js';

export const inspectTool = defineTool<InspectRequest>({
  id: 'inspector',
  operationId: 'inspector',
  name: 'Inspector',
  method: 'POST',
  path: '/api/inspect',
  promise:
    'Quarantines exposed items, checks for a complete clean cohort, then gates baseline against candidate on it',
  schema: InspectRequest,
  example: inspectExample,
  workload: inspectWorkload,
  run: runInspect,
  costMsPerKiB: 1.0,
});
