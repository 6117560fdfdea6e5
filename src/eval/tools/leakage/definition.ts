import { defineTool } from '../../tool-definition.js';
import { leakageExample } from './example.js';
import { runLeakage } from './leakage.js';
import { LeakageRequest } from './schema.js';
import { leakageWorkload } from './workload.js';

export const leakageTool = defineTool<LeakageRequest>({
  id: 'leakage',
  operationId: 'leakage',
  name: 'Leakage audit',
  method: 'POST',
  path: '/api/leakage',
  promise:
    'Audits declared exposure against an exam (identity, content hash, behavioural fingerprint, text similarity) and exports the clean exam',
  schema: LeakageRequest,
  example: leakageExample,
  workload: leakageWorkload,
  run: runLeakage,
  costMsPerKiB: 0.75,
});
