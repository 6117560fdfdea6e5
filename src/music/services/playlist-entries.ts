/**
 * A playlist's entries under an edit (pure): the edit names what the caller sees (positions count
 * only those, as Subsonic's songIndexToRemove does and as the REST pages number them); each entry
 * hidden from the caller keeps its place (keepUnseenEntries); the result is bounded.
 */
import { playlistEntryMoved, playlistPositionPastEnd, tooManyPlaylistTracks } from '../errors/playlists.js';
import { PLAYLIST_LIMITS } from './playlist-limits.js';

/** One entry as stored, and whether the caller may play its song. */
export interface CurrentEntry {
  trackId: string;
  playable: boolean;
}

/** A place among the songs the caller sees, and (when given) the song they saw there. */
export interface EntryAt {
  position: number;
  trackId?: string;
}

/** A change of the songs the caller sees; new ids are checked (playable by the caller) beforehand. */
export type EntryEdit =
  /** The whole new order. */
  | { kind: 'order'; trackIds: string[] }
  /** Entries removed (positions as read), then songs added at the end. */
  | { kind: 'splice'; remove: EntryAt[]; append: string[] }
  /** One entry moved to `to` (its position afterwards). */
  | { kind: 'move'; from: EntryAt; to: number };

/**
 * Entries in their new order: `seen` (the playable entries kept or added, by key), each followed by
 * the hidden entries that followed it; hidden entries before every kept one come first.
 */
function keepUnseenKeys<K>(entries: { key: K; playable: boolean }[], seen: K[]): K[] {
  const kept = new Set(seen);
  const first: K[] = [];
  const after = new Map<K, K[]>();
  let anchor: K[] = first;
  for (const e of entries) {
    if (!e.playable) anchor.push(e.key);
    else if (kept.has(e.key)) after.set(e.key, (anchor = []));
  }
  return [...first, ...seen.flatMap((k) => [k, ...(after.get(k) ?? [])])];
}

/**
 * A playlist's entries after a caller's edit: `seen` is the new order of what the caller can play;
 * each entry they cannot (a track its owner has since made private, never shown to them) stays
 * right after the playable entry it followed, or first when that one was removed. A song listed
 * twice is matched by which occurrence of it an entry is (an order of ids says no more).
 */
export function keepUnseenEntries(current: string[], seen: string[], playable: Set<string>): string[] {
  const counts = new Map<string, number>();
  const occurrence = (id: string) => {
    const n = counts.get(id) ?? 0;
    counts.set(id, n + 1);
    return `${n}:${id}`;
  };
  const idOf = new Map<string, string>();
  const entries = current.map((id, i) => {
    const key = playable.has(id) ? occurrence(id) : `#${i}`;
    idOf.set(key, id);
    return { key, playable: playable.has(id) };
  });
  counts.clear();
  const seenKeys = seen.map((id) => {
    const key = occurrence(id);
    idOf.set(key, id);
    return key;
  });
  return keepUnseenKeys(entries, seenKeys).map((key) => idOf.get(key)!);
}

/** The index in `shown` that `at` names, when the song there is still the one the caller saw. */
function checkedPosition(shown: string[], at: EntryAt, path: string): number {
  if (at.position >= shown.length)
    throw playlistPositionPastEnd(`${path}/position`, at.position, shown.length);
  if (at.trackId !== undefined && shown[at.position] !== at.trackId.toLowerCase())
    throw playlistEntryMoved(`${path}/track_id`, at.position);
  return at.position;
}

/**
 * The new entries of a move or a splice: positions name entries exactly (the second of two
 * listings of a song is its own entry), so each hidden entry stays after the one it followed.
 */
function editedByPosition(current: CurrentEntry[], edit: Exclude<EntryEdit, { kind: 'order' }>): string[] {
  const ids = current.map((e) => e.trackId);
  const keyed = current.map((e, key) => ({ key, playable: e.playable }));
  const shown = keyed.filter((e) => e.playable).map((e) => e.key);
  const shownIds = shown.map((key) => ids[key]!);
  let seen: number[];
  if (edit.kind === 'splice') {
    const removed = new Set(edit.remove.map((at, i) => checkedPosition(shownIds, at, `/remove/${i}`)));
    const added = edit.append.map((id) => ids.push(id) - 1);
    seen = [...shown.filter((_, i) => !removed.has(i)), ...added];
  } else {
    const from = checkedPosition(shownIds, edit.from, '/move');
    if (edit.to >= shown.length) throw playlistPositionPastEnd('/move/to', edit.to, shown.length);
    seen = [...shown];
    seen.splice(edit.to, 0, ...seen.splice(from, 1));
  }
  return keepUnseenKeys(keyed, seen).map((key) => ids[key]!);
}

/** The new entries, hidden ones in place; a 400 past PLAYLIST_LIMITS.tracks. */
export function editedEntries(current: CurrentEntry[], edit: EntryEdit): string[] {
  const next =
    edit.kind === 'order'
      ? keepUnseenEntries(
          current.map((e) => e.trackId),
          edit.trackIds,
          new Set([...current.filter((e) => e.playable).map((e) => e.trackId), ...edit.trackIds]),
        )
      : editedByPosition(current, edit);
  if (next.length > PLAYLIST_LIMITS.tracks)
    throw tooManyPlaylistTracks(
      PLAYLIST_LIMITS.tracks,
      next.length,
      edit.kind === 'order' ? '/track_ids' : '/add_track_ids',
    );
  return next;
}
