import { nearLimit, WorkloadRandom } from '../workload-text.js';
import { MAX_EVENTS, type EmulatorEvent, type ReplayRequest } from './schema.js';

/**
 * Near-limit events in rounds of fifty: a checkpoint, a rewind to it, a check and its verdict,
 * model chatter between; then an answer and its acceptance.
 */
export function replayWorkload(): ReplayRequest {
  const rng = new WorkloadRandom(7);
  const event = (kind: string, detail: string, step: number): EmulatorEvent => ({
    kind,
    detail,
    step,
    source: 'native',
  });
  const before = nearLimit(MAX_EVENTS) - 2;
  const events = Array.from({ length: before }, (_, s) => {
    const r = s % 50;
    if (r === 0) return event('control', `SAVE cp${s}`, s);
    if (r === 25) return event('control', `LOAD cp${s - 25} :: retry ${s}`, s);
    if (r === 30) return event('control', 'CHECK is_connected and is_tree', s);
    if (r === 31) return event('verifier', rng.pick(['ACCEPT', 'REJECT too slow']), s);
    return event('model', rng.sentence(6), s);
  });
  events.push(event('control', 'ANSWER is_tree', before), event('verifier', 'ACCEPT', before + 1));
  return { events };
}
