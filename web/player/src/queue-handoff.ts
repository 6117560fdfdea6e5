/**
 * When a device offers the queue saved by another one (pure; test/web-queue-handoff.test.ts): only
 * a saved queue this device has not saved, taken or declined already, that is not the one it
 * holds, and only when its own queue is empty or older. Never taken without the listener's word.
 */
export interface LocalQueue {
  ids: string[];
  index: number;
  /** When the listener last changed it here (ms since 1970; 0: never). */
  changedAt: number;
  /** changed_at of the saved queue this device last saved, took or declined. */
  syncedAt: string | null;
}

export interface SavedQueue {
  track_ids: string[];
  current_index: number | null;
  changed_at: string | null;
}

export type Handoff = 'offer' | 'same' | 'keep';

/** 'offer' it; 'same' as this device's (nothing to ask: mark it seen); 'keep' this device's. */
export function handoff(local: LocalQueue, saved: SavedQueue): Handoff {
  if (saved.track_ids.length === 0 || saved.changed_at === null) return 'keep';
  if (saved.changed_at === local.syncedAt) return 'keep';
  const same =
    saved.track_ids.length === local.ids.length &&
    saved.track_ids.every((id, i) => id === local.ids[i]) &&
    (saved.current_index ?? 0) === Math.max(0, local.index);
  if (same) return 'same';
  const savedAt = Date.parse(saved.changed_at);
  return local.ids.length === 0 || (Number.isFinite(savedAt) && savedAt > local.changedAt) ? 'offer' : 'keep';
}
