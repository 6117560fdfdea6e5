import { defineTool } from '../../tool-definition.js';
import { gateExample } from './example.js';
import { runGate } from './gate.js';
import { GateRequest } from './schema.js';

export const gateTool = defineTool<GateRequest>({
  id: 'gate',
  operationId: 'gate',
  name: 'Promotion gate',
  method: 'POST',
  path: '/api/gate',
  promise: 'PASS, HOLD or BLOCK from paired item-level results, with an exact sign test',
  schema: GateRequest,
  example: gateExample,
  run: runGate,
  costMsPerKiB: 0.6,
});
