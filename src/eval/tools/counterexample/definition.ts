import { threadKernel } from '../../speed/graph-kernel.js';
import { defineTool } from '../../tool-definition.js';
import { runCounterexample } from './counterexample.js';
import { counterexampleExample } from './example.js';
import { CounterexampleRequest } from './schema.js';
import { counterexampleWorkload } from './workload.js';

export const counterexampleTool = defineTool<CounterexampleRequest>({
  id: 'counterexample',
  operationId: 'counterexample',
  name: 'Counterexample hunter',
  method: 'POST',
  path: '/api/counterexample',
  promise:
    'Bounded graph search against one predicate expression; returns an exact witness when one is found',
  schema: CounterexampleRequest,
  example: counterexampleExample,
  workload: counterexampleWorkload,
  run: (request) => runCounterexample(request, threadKernel()),
  // Annealing and the exhaustive check take milliseconds to seconds whatever the body size.
  costMsPerKiB: null,
});
