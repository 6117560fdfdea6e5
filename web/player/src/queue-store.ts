/**
 * What the queue holds and how it is kept across reloads: a list of tracks (what a row of any list
 * shows: title, artist, cover, length), the one playing, shuffle and repeat, and when it last
 * changed here (for the queue shared between devices: queue-sync.ts). localStorage is read as
 * untrusted input: anything malformed is dropped item by item, never thrown at the page.
 */
import { REPEATS, type Repeat } from './queue-order';

export interface QueueItem {
  id: string;
  title: string;
  artist: string | null;
  /** Where the artist's name links: /artists/<id> or /users/<handle>. */
  artistHref: string | null;
  coverUrl: string | null;
  durationSeconds: number | null;
}

export interface QueueState {
  items: QueueItem[];
  /** The playing (or paused) item; -1 when nothing is chosen. */
  index: number;
  /** Where the current item was when last saved (seconds). */
  position: number;
  /** Shuffled: each item's rank in the unshuffled order (queue-order.ts); null when not shuffled. */
  ranks: number[] | null;
  repeat: Repeat;
  /** When the listener last changed the queue on this device (ms since 1970; 0: never). */
  changedAt: number;
  /** changed_at of the shared queue this device last saved, took or declined (null: none). */
  syncedAt: string | null;
}

export const EMPTY_QUEUE: Readonly<QueueState> = {
  items: [],
  index: -1,
  position: 0,
  ranks: null,
  repeat: 'off',
  changedAt: 0,
  syncedAt: null,
};

const KEY = 'music.queue';
/** A bound so a runaway "add all" cannot fill the storage quota. */
export const MAX_QUEUE = 500;
const ID = /^[0-9A-Za-z_-]{1,64}$/;
const LOCAL_PATH = /^\/[^/]/;

const text = (v: unknown, max: number): string | null =>
  typeof v === 'string' && v.length > 0 && v.length <= max ? v : null;

/** A local path (never another origin, never javascript:) or null. */
const localPath = (v: unknown): string | null => {
  const s = text(v, 2000);
  return s !== null && LOCAL_PATH.test(s) ? s : null;
};

export function validItem(raw: unknown): QueueItem | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const r = raw as Record<string, unknown>;
  const id = text(r.id, 64);
  const title = text(r.title, 500);
  if (id === null || !ID.test(id) || title === null) return null;
  const d = r.durationSeconds;
  return {
    id,
    title,
    artist: text(r.artist, 500),
    artistHref: localPath(r.artistHref),
    coverUrl: localPath(r.coverUrl),
    durationSeconds: typeof d === 'number' && Number.isFinite(d) && d >= 0 ? d : null,
  };
}

const whole = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

export function readQueue(): QueueState {
  const empty: QueueState = { ...EMPTY_QUEUE };
  let raw: unknown;
  try {
    raw = JSON.parse(localStorage.getItem(KEY) ?? 'null');
  } catch {
    return empty;
  }
  if (typeof raw !== 'object' || raw === null) return empty;
  const r = raw as Record<string, unknown>;
  if (!Array.isArray(r.items)) return empty;
  const raws = r.items.slice(0, MAX_QUEUE);
  // Shuffle's ranks only when there is one whole number per stored item; else the order as it is.
  const rawRanks =
    Array.isArray(r.ranks) && r.ranks.length === raws.length && r.ranks.every(whole) ? r.ranks : null;
  const kept = raws.map((raw, i) => [validItem(raw), i] as const).filter(([item]) => item !== null);
  const items = kept.map(([item]) => item!);
  const index = typeof r.index === 'number' && Number.isInteger(r.index) ? r.index : -1;
  const position = typeof r.position === 'number' && Number.isFinite(r.position) ? r.position : 0;
  return {
    items,
    index: index >= 0 && index < items.length ? index : items.length ? 0 : -1,
    position: Math.max(0, position),
    ranks: rawRanks ? kept.map(([, i]) => rawRanks[i] as number) : null,
    repeat: REPEATS.includes(r.repeat as Repeat) ? (r.repeat as Repeat) : 'off',
    changedAt: whole(r.changedAt) ? r.changedAt : 0,
    syncedAt: text(r.syncedAt, 40),
  };
}

export function writeQueue(state: QueueState): void {
  try {
    localStorage.setItem(KEY, JSON.stringify(state));
  } catch {
    // A full or blocked storage: the queue still works for this page.
  }
}
