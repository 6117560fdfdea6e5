import { defineTool } from '../../tool-definition.js';
import { gateExample } from './example.js';
import { cohortKeys, runGate } from './gate.js';
import { GateRequest } from './schema.js';
import { gateWorkload } from './workload.js';

export const gateTool = defineTool<GateRequest>({
  id: 'gate',
  operationId: 'gate',
  name: 'Promotion gate',
  method: 'POST',
  path: '/api/gate',
  promise: 'PASS, HOLD or BLOCK from paired item-level results, with an exact sign test',
  schema: GateRequest,
  example: gateExample,
  workload: gateWorkload,
  // The validator listed the three maps' keys already: the gate does not list them again.
  run: (request, listed) => runGate(request, cohortKeys(request, listed)),
  costMsPerKiB: 0.6,
});
