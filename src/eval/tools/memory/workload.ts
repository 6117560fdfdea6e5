import { nearLimit, WorkloadRandom } from '../workload-text.js';
import { MAX_ENTITIES, MAX_MEMORIES, type MemoryRequest } from './schema.js';

const KINDS = ['episodic', 'semantic', 'procedural', 'preference', 'reflection', 'summary'];

/**
 * Near-limit memories of thirty words and five entities each, ranked against near-limit objective
 * entities from the same vocabulary, under a large token budget.
 */
export function memoryWorkload(): MemoryRequest {
  const rng = new WorkloadRandom(7);
  return {
    objective: 'repair the pagination bug in the billing service for customer acme',
    memories: Array.from({ length: nearLimit(MAX_MEMORIES) }, () => ({
      content: rng.sentence(30),
      entities: Array.from({ length: 5 }, () => rng.word()),
      confidence: Math.round(rng.next() * 1000) / 1000,
      age: rng.below(500),
      use_count: rng.below(20),
      kind: rng.pick(KINDS),
      source: 'uploaded',
    })),
    objective_entities: Array.from({ length: nearLimit(MAX_ENTITIES) }, () => rng.word()),
    question_kind: 'generic',
    token_budget: 2000,
  };
}
