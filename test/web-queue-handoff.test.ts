/**
 * When the player offers the queue another device saved (web/player/src/queue-handoff.ts): an
 * empty or older queue here is offered the saved one; a newer one here is kept; the queue this
 * device saved, took or declined is not offered again; the same queue is not asked about.
 */
import { describe, expect, it } from 'vitest';
import { handoff, type LocalQueue, type SavedQueue } from '../web/player/src/queue-handoff.js';

const at = '2026-11-29T03:00:00.000Z';
const saved: SavedQueue = { track_ids: ['a', 'b', 'c'], current_index: 1, changed_at: at };
const empty: LocalQueue = { ids: [], index: -1, changedAt: 0, syncedAt: null };

describe('handing the queue over between devices', () => {
  it('offers the saved queue to a device whose own queue is empty', () => {
    expect(handoff(empty, saved)).toBe('offer');
  });

  it('offers it over an older queue here, keeps a newer one', () => {
    const mine = { ids: ['x'], index: 0, syncedAt: null };
    expect(handoff({ ...mine, changedAt: Date.parse(at) - 1 }, saved)).toBe('offer');
    expect(handoff({ ...mine, changedAt: Date.parse(at) + 1 }, saved)).toBe('keep');
  });

  it('does not offer what this device saved, took or declined', () => {
    expect(handoff({ ...empty, syncedAt: at }, saved)).toBe('keep');
    expect(handoff({ ...empty, syncedAt: '2026-11-29T02:00:00.000Z' }, saved)).toBe('offer');
  });

  it('does not ask about the queue this device already holds, at the same track', () => {
    const same = { ids: ['a', 'b', 'c'], index: 1, changedAt: 0, syncedAt: null };
    expect(handoff(same, saved)).toBe('same');
    expect(handoff({ ...same, index: 2 }, saved)).toBe('offer');
  });

  it('nothing saved, or a saved queue with no tracks left to play: nothing offered', () => {
    expect(handoff(empty, { track_ids: [], current_index: null, changed_at: null })).toBe('keep');
    expect(handoff(empty, { track_ids: [], current_index: null, changed_at: at })).toBe('keep');
  });
});
