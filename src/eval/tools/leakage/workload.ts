import { nearLimit, WorkloadRandom } from '../workload-text.js';
import { MAX_EXAM, MAX_EXPOSURE, type LeakageRequest } from './schema.js';

/**
 * A near-limit exam and exposure: one exposure row in ten names an exam item, one in ten holds an
 * item's prompt with words added (a similarity match), the rest is unrelated text.
 */
export function leakageWorkload(rng = new WorkloadRandom(7)): LeakageRequest {
  const exam = Array.from({ length: nearLimit(MAX_EXAM) }, (_, i) => ({
    item_id: `item-${i}`,
    prompt: rng.sentence(18),
    domain: rng.pick(['a', 'b']),
  }));
  const exposure = Array.from({ length: nearLimit(MAX_EXPOSURE) }, (_, i) => {
    const item = exam[i % exam.length]!;
    if (i % 10 === 0) return { id: item.item_id, content: item.prompt, source: 'dump' };
    if (i % 10 === 1) return { content: `${item.prompt} extra words here`, source: 'forum' };
    return { content: rng.sentence(18), source: 'web' };
  });
  return {
    exam,
    exposure,
    enable_behavioral_fingerprint: true,
    enable_text_similarity: true,
    fingerprint_max_n: 4,
    similarity_threshold: 0.6,
  };
}
