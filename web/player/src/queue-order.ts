/**
 * The queue's order as pure functions (no DOM, no storage; test/web-queue-order.test.ts): shuffle
 * and its undoing, and where next/previous/the end of a track go under repeat off, all or one.
 * Shuffling keeps `ranks` beside the items (each item's place in the order before shuffling), so
 * turning shuffle off restores that order with whatever was added, moved or removed meanwhile.
 */
export type Repeat = 'off' | 'all' | 'one';

export const REPEATS: readonly Repeat[] = ['off', 'all', 'one'];

export interface Order<T> {
  items: T[];
  /** The current item; -1 when none. */
  index: number;
  /** Shuffled: each item's rank in the unshuffled order (a parallel array); null when not shuffled. */
  ranks: number[] | null;
}

/** Off → all → one → off: what the repeat button does. */
export function nextRepeat(r: Repeat): Repeat {
  return REPEATS[(REPEATS.indexOf(r) + 1) % REPEATS.length]!;
}

/** Ranks renumbered 0..n-1 in the same relative order (ties keep their places). */
function renumber(ranks: number[]): number[] {
  const byRank = ranks.map((r, i) => [r, i] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const out = new Array<number>(ranks.length);
  byRank.forEach(([, i], k) => (out[i] = k));
  return out;
}

/**
 * Shuffle on: the items after the current one in a fresh random order (Fisher–Yates with
 * `random`, in [0, 1)); the current one and those before it stay where they are.
 */
export function shuffleOn<T>(o: Order<T>, random: () => number = Math.random): Order<T> {
  const ranks = o.ranks ?? o.items.map((_, i) => i);
  const places = o.items.map((_, i) => i);
  for (let i = places.length - 1; i > o.index + 1; i--) {
    const j = o.index + 1 + Math.floor(random() * (i - o.index));
    [places[i], places[j]] = [places[j]!, places[i]!];
  }
  return { items: places.map((p) => o.items[p]!), index: o.index, ranks: places.map((p) => ranks[p]!) };
}

/** Shuffle off: the items in their unshuffled order; the current one stays current. */
export function shuffleOff<T>(o: Order<T>): Order<T> {
  if (!o.ranks) return o;
  const ranks = o.ranks;
  const places = o.items.map((_, i) => i).sort((a, b) => ranks[a]! - ranks[b]! || a - b);
  return { items: places.map((p) => o.items[p]!), index: places.indexOf(o.index), ranks: null };
}

/**
 * `added` put at `at` of the playing order; unshuffled, they go right after the current item's
 * rank (`afterCurrent`: play next) or after every other (add to the end).
 */
export function insertItems<T>(o: Order<T>, at: number, added: T[], afterCurrent: boolean): Order<T> {
  const items = [...o.items.slice(0, at), ...added, ...o.items.slice(at)];
  const index = o.index >= at ? o.index + added.length : o.index;
  if (!o.ranks) return { items, index, ranks: null };
  // Between the current item's rank and the next one's (ranks are whole numbers), or after all.
  const after = afterCurrent && o.index >= 0 ? o.ranks[o.index]! : undefined;
  const fresh = added.map((_, k) =>
    after === undefined ? Math.max(-1, ...o.ranks!) + 1 + k : after + (k + 1) / (added.length + 1),
  );
  return { items, index, ranks: renumber([...o.ranks.slice(0, at), ...fresh, ...o.ranks.slice(at)]) };
}

/** At most `max` items: those past it dropped (the current one is the caller's to keep within). */
export function limitItems<T>(o: Order<T>, max: number): Order<T> {
  if (o.items.length <= max) return o;
  return {
    items: o.items.slice(0, max),
    index: Math.min(o.index, max - 1),
    ranks: o.ranks ? renumber(o.ranks.slice(0, max)) : null,
  };
}

/** The item at `from` moved to `to` in the playing order (its unshuffled rank goes with it). */
export function moveItem<T>(o: Order<T>, from: number, to: number): Order<T> {
  const items = [...o.items];
  const [item] = items.splice(from, 1);
  items.splice(to, 0, item!);
  let index = o.index;
  if (o.index === from) index = to;
  else if (from < o.index && to >= o.index) index--;
  else if (from > o.index && to <= o.index) index++;
  if (!o.ranks) return { items, index, ranks: null };
  const ranks = [...o.ranks];
  const [rank] = ranks.splice(from, 1);
  ranks.splice(to, 0, rank!);
  return { items, index, ranks };
}

/** The item at `at` taken off; the current index follows (a removed current one is the caller's to replace). */
export function removeItem<T>(o: Order<T>, at: number): Order<T> {
  const items = o.items.filter((_, i) => i !== at);
  const index = at < o.index ? o.index - 1 : o.index;
  return { items, index, ranks: o.ranks ? renumber(o.ranks.filter((_, i) => i !== at)) : null };
}

/**
 * Where Next goes, or -1 for nowhere: the following item; past the last, the first under repeat
 * all or one (Next always moves on: repeat one replays only a track that ended on its own).
 */
export function nextIndex(index: number, length: number, repeat: Repeat): number {
  if (length === 0) return -1;
  if (index + 1 < length) return index + 1;
  return repeat === 'off' ? -1 : 0;
}

/** Where the end of a track goes: itself under repeat one, else as Next; -1 stops there. */
export function endedIndex(index: number, length: number, repeat: Repeat): number {
  if (repeat === 'one' && index >= 0 && index < length) return index;
  return nextIndex(index, length, repeat);
}

/** Where Previous goes from the start of a track: the one before; before the first, the last under repeat (else -1: restart). */
export function previousIndex(index: number, length: number, repeat: Repeat): number {
  if (index > 0) return index - 1;
  return repeat === 'off' || length === 0 ? -1 : length - 1;
}
