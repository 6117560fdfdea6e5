/**
 * The play queue: play a list from one of its tracks, play next, add to the end, reorder, remove,
 * shuffle and repeat (the order's rules: queue-order.ts); the next track starts when one ends;
 * kept in localStorage (queue-store.ts) so a reload finds it.
 */
import { ProblemError } from '../../shared/http';
import type { TrackPage } from './api';
import { audio, current, load } from './audio-engine';
import {
  endedIndex,
  insertItems,
  limitItems,
  moveItem,
  nextIndex,
  nextRepeat,
  previousIndex,
  removeItem,
  shuffleOff,
  shuffleOn,
  type Order,
} from './queue-order';
import { MAX_QUEUE, readQueue, writeQueue, type QueueItem, type QueueState } from './queue-store';

const state: QueueState = readQueue();
/** Fired on `audio` whenever the queue's items, position, shuffle or repeat change. */
export const QUEUE_EVENT = 'music:queue';

/** `listener`: a change the listener made here (not a reload's restore), which the shared queue takes. */
function changed(listener = true): void {
  if (listener) state.changedAt = Date.now();
  writeQueue(state);
  audio.dispatchEvent(new Event(QUEUE_EVENT));
}

function apply(o: Order<QueueItem>): void {
  state.items = o.items;
  state.index = o.index;
  state.ranks = o.ranks;
}

export function queue(): Readonly<QueueState> {
  return state;
}

/** What the queue last did on its own (tracks taken off because they are gone), for the bar to say. */
let notice = '';

export function queueNotice(): string {
  return notice;
}

const gone = (err: unknown): boolean => err instanceof ProblemError && err.problem.status === 404;

/**
 * Plays item `index`; one without audio (still processing) is skipped forward, one that is gone
 * (deleted, or private now) is taken off the queue and the bar says so.
 */
async function playAt(index: number, play = true, startAt = 0, track?: TrackPage): Promise<void> {
  notice = '';
  const removed: string[] = [];
  for (let i = index; i < state.items.length;) {
    state.index = i;
    state.position = startAt;
    // A cued track (a reload, a queue taken from another device) is not a change made here.
    changed(play);
    const item = state.items[i]!;
    const ok = await load(item, { play, startAt, track }).catch((err: unknown) => (gone(err) ? null : false));
    // A newer choice (another Play, Next) took over meanwhile.
    if (state.index !== i) return;
    if (ok) break;
    if (ok === null && state.items[i] === item) {
      apply(removeItem(state, i));
      removed.push(`“${item.title}”`);
    } else i++;
    startAt = 0;
    track = undefined;
  }
  if (removed.length === 0) return;
  state.index = Math.min(state.index, state.items.length - 1);
  notice = `${removed.join(', ')} ${removed.length === 1 ? 'is' : 'are'} no longer available (deleted or made private): taken off the queue.`;
  changed();
}

/** A track page's Play: the track goes right after the playing one and starts (the rest stays queued). */
export function playNow(item: QueueItem, track?: TrackPage, startAt = 0): Promise<void> {
  const at = state.index + 1;
  apply(limitItems(insertItems(state, at, [item], true), MAX_QUEUE));
  return playAt(at, true, startAt, track);
}

/** The window of at most MAX_QUEUE items of `items` that holds `start`, and `start`'s place in it. */
function windowOf(items: QueueItem[], start: number): { items: QueueItem[]; index: number } {
  const from = Math.max(0, Math.min(start, items.length - MAX_QUEUE));
  const kept = items.slice(from, from + MAX_QUEUE);
  return { items: kept, index: Math.min(Math.max(0, start - from), kept.length - 1) };
}

/**
 * Replaces the queue with `items` and plays the one at `start`; of a list longer than the queue
 * holds, the MAX_QUEUE items from `start` on (or the last MAX_QUEUE), so the one chosen is in it.
 * Shuffle on: the tracks after the chosen one in a fresh random order.
 */
export function playList(items: QueueItem[], start = 0): Promise<void> {
  const w = windowOf(items, start);
  const o: Order<QueueItem> = { items: w.items, index: w.index, ranks: null };
  apply(state.ranks ? shuffleOn(o) : o);
  return playAt(state.index);
}

/** Puts `items` right after the playing one (or starts them when nothing plays). */
export function playNext(items: QueueItem[]): void {
  if (state.index < 0) return void playList(items);
  apply(limitItems(insertItems(state, state.index + 1, items, true), MAX_QUEUE));
  changed();
}

export function addToQueue(items: QueueItem[]): void {
  if (state.index < 0) return void playList(items);
  apply(insertItems(state, state.items.length, items.slice(0, MAX_QUEUE - state.items.length), false));
  changed();
}

export function move(from: number, to: number): void {
  if (from === to || to < 0 || to >= state.items.length || !state.items[from]) return;
  apply(moveItem(state, from, to));
  changed();
}

export function remove(index: number): void {
  if (!state.items[index]) return;
  // Asked before removeItem, which moves the index back when an earlier item goes.
  const wasCurrent = index === state.index;
  apply(removeItem(state, index));
  if (wasCurrent) {
    // The playing one removed: the next one (if any) takes its place, paused as it was.
    const wasPlaying = !audio.paused;
    audio.pause();
    if (state.items.length === 0) state.index = -1;
    else {
      state.changedAt = Date.now();
      return void playAt(Math.min(index, state.items.length - 1), wasPlaying);
    }
  }
  changed();
}

export function jump(index: number): Promise<void> {
  return playAt(index);
}

/** Whether Next has somewhere to go (the bar's button). */
export function hasNext(): boolean {
  return nextIndex(state.index, state.items.length, state.repeat) >= 0;
}

export function next(): void {
  const to = nextIndex(state.index, state.items.length, state.repeat);
  if (to >= 0) void playAt(to);
}

/** Back to the start of the track, or to the previous one within its first 3 seconds. */
export function previous(): void {
  const to = previousIndex(state.index, state.items.length, state.repeat);
  if (audio.currentTime > 3 || to < 0) audio.currentTime = 0;
  else void playAt(to);
}

/** Shuffle on (what is left in a fresh random order) or off (the order before it); the current track plays on. */
export function toggleShuffle(): void {
  apply(state.ranks ? shuffleOff(state) : shuffleOn(state));
  changed();
}

/** Repeat off → all → one → off. */
export function cycleRepeat(): void {
  state.repeat = nextRepeat(state.repeat);
  changed();
}

/**
 * The queue of another device (the shared queue: queue-sync.ts) in place of this one's, cued at
 * `positionSeconds` of its current track (played when `play`); shuffle off, repeat kept.
 */
export function takeQueue(
  items: QueueItem[],
  start: number,
  positionSeconds: number,
  play: boolean,
): Promise<void> {
  const w = windowOf(items, start);
  apply({ items: w.items, index: w.index, ranks: null });
  return playAt(w.index, play, positionSeconds);
}

// Repeat one replays the track that ended (loaded again: a new listening, counted as a play).
audio.addEventListener('ended', () => {
  const to = endedIndex(state.index, state.items.length, state.repeat);
  if (to >= 0) void playAt(to);
});
let lastSave = 0;
audio.addEventListener('timeupdate', () => {
  // The position, at most every 5 s: a reload resumes near where it was.
  if (Math.abs(audio.currentTime - lastSave) < 5) return;
  lastSave = audio.currentTime;
  state.position = audio.currentTime;
  writeQueue(state);
});
audio.addEventListener('pause', () => {
  state.position = audio.currentTime;
  writeQueue(state);
});

/** After a reload: the queue's track is cued where it was, not started (no sound without a click). */
export function restoreQueue(): void {
  if (state.index >= 0 && !current()) void playAt(state.index, false, state.position);
}

/** The shared queue's changed_at this device saved, took or declined: not offered again. */
export function markSynced(changedAt: string): void {
  state.syncedAt = changedAt;
  writeQueue(state);
}
