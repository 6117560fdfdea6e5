/**
 * The play queue: play a list from one of its tracks, play next, add to the end, reorder, remove;
 * the next track starts when one ends; kept in localStorage (queue-store.ts) so a reload finds it.
 */
import { ProblemError } from '../../shared/http';
import type { TrackPage } from './api';
import { audio, current, load } from './audio-engine';
import { MAX_QUEUE, readQueue, writeQueue, type QueueItem, type QueueState } from './queue-store';

const state: QueueState = readQueue();
/** Fired on `audio` whenever the queue's items or position change. */
export const QUEUE_EVENT = 'music:queue';

function changed(): void {
  writeQueue(state);
  audio.dispatchEvent(new Event(QUEUE_EVENT));
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
    changed();
    const item = state.items[i]!;
    const ok = await load(item, { play, startAt, track }).catch((err: unknown) => (gone(err) ? null : false));
    // A newer choice (another Play, Next) took over meanwhile.
    if (state.index !== i) return;
    if (ok) break;
    if (ok === null && state.items[i] === item) {
      state.items.splice(i, 1);
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
  state.items.splice(at, 0, item);
  state.items.length = Math.min(state.items.length, MAX_QUEUE);
  return playAt(at, true, startAt, track);
}

/**
 * Replaces the queue with `items` and plays the one at `start`; of a list longer than the queue
 * holds, the MAX_QUEUE items from `start` on (or the last MAX_QUEUE), so the one chosen is in it.
 */
export function playList(items: QueueItem[], start = 0): Promise<void> {
  const from = Math.max(0, Math.min(start, items.length - MAX_QUEUE));
  state.items = items.slice(from, from + MAX_QUEUE);
  return playAt(Math.min(Math.max(0, start - from), state.items.length - 1));
}

/** Puts `items` right after the playing one (or starts them when nothing plays). */
export function playNext(items: QueueItem[]): void {
  if (state.index < 0) return void playList(items);
  state.items.splice(state.index + 1, 0, ...items);
  state.items.length = Math.min(state.items.length, MAX_QUEUE);
  changed();
}

export function addToQueue(items: QueueItem[]): void {
  if (state.index < 0) return void playList(items);
  state.items.push(...items.slice(0, MAX_QUEUE - state.items.length));
  changed();
}

export function move(from: number, to: number): void {
  if (from === to || to < 0 || to >= state.items.length || !state.items[from]) return;
  const [item] = state.items.splice(from, 1);
  state.items.splice(to, 0, item!);
  if (state.index === from) state.index = to;
  else if (from < state.index && to >= state.index) state.index--;
  else if (from > state.index && to <= state.index) state.index++;
  changed();
}

export function remove(index: number): void {
  if (!state.items[index]) return;
  state.items.splice(index, 1);
  if (index < state.index) state.index--;
  else if (index === state.index) {
    // The playing one removed: the next one (if any) takes its place, paused as it was.
    const wasPlaying = !audio.paused;
    audio.pause();
    if (state.items.length === 0) state.index = -1;
    else return void playAt(Math.min(index, state.items.length - 1), wasPlaying);
  }
  changed();
}

export function jump(index: number): Promise<void> {
  return playAt(index);
}

export function next(): void {
  if (state.index + 1 < state.items.length) void playAt(state.index + 1);
}

/** Back to the start of the track, or to the previous one within its first 3 seconds. */
export function previous(): void {
  if (audio.currentTime > 3 || state.index <= 0) audio.currentTime = 0;
  else void playAt(state.index - 1);
}

audio.addEventListener('ended', () => next());
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
