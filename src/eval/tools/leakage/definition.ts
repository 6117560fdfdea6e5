import { defineTool } from '../../tool-types.js';
import { leakageExample } from './example.js';
import { runLeakage } from './leakage.js';
import { LeakageRequest } from './schema.js';

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
  run: runLeakage,
  // Truth tables over up to 1099 graphs and 5000 x 5000 text indexes: milliseconds to a second.
  placement: 'pool',
});
