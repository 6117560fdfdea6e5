import { describe, expect, it } from 'vitest';
import { editedEntries, keepUnseenEntries, type CurrentEntry, type EntryEdit } from './playlist-entries.js';

/** Entries by name: x, y and z hidden from the editor, the others songs they see. */
const entries = (names: string): CurrentEntry[] =>
  names.split(' ').map((trackId) => ({ trackId, playable: !'xyz'.includes(trackId) }));
const edited = (names: string, edit: EntryEdit): string => editedEntries(entries(names), edit).join(' ');

/** The status, field and words of the error `f` throws. */
function refused(f: () => unknown): [number, string, string] {
  try {
    f();
  } catch (err) {
    const e = err as { status: number; message: string; errors: { path: string }[] };
    return [e.status, e.errors[0]!.path, e.message];
  }
  throw new Error('not refused');
}

describe('playlist entries under an edit', () => {
  it('names positions among the songs the editor sees; each listing of a song is its own entry', () => {
    const list = 'a b a c';
    expect(edited(list, { kind: 'splice', remove: [{ position: 2, trackId: 'A' }], append: [] })).toBe(
      'a b c',
    );
    expect(edited(list, { kind: 'splice', remove: [{ position: 0 }, { position: 0 }], append: ['d'] })).toBe(
      'b a c d',
    );
    expect(edited(list, { kind: 'move', from: { position: 3, trackId: 'c' }, to: 0 })).toBe('c a b a');
    expect(edited(list, { kind: 'move', from: { position: 0 }, to: 3 })).toBe('b a c a');
  });

  it('keeps each hidden entry after the song it followed, first when no song before it stays', () => {
    const list = 'x a y b z a';
    expect(edited(list, { kind: 'move', from: { position: 1 }, to: 0 })).toBe('x b z a y a');
    // The first "a" removed, not the second: y followed it, so y goes to the front.
    expect(edited(list, { kind: 'splice', remove: [{ position: 0 }], append: ['c'] })).toBe('x y b z a c');
    expect(edited(list, { kind: 'splice', remove: [{ position: 2 }], append: [] })).toBe('x a y b z');
    // An order of ids cannot say which "a" went: the later listing is taken as removed.
    expect(keepUnseenEntries('x a y b z a'.split(' '), ['b', 'a'], new Set(['a', 'b'])).join(' ')).toBe(
      'x b z a y',
    );
  });

  it('refuses a position past the end (400) and one whose song is another now (409), naming the field', () => {
    expect(refused(() => edited('a b', { kind: 'splice', remove: [{ position: 2 }], append: [] }))).toEqual([
      400,
      '/remove/0/position',
      'Position 2 is past the end: the playlist shows you 2 tracks, positions 0 to 1.',
    ]);
    expect(refused(() => edited('a b', { kind: 'move', from: { position: 0 }, to: 2 }))[1]).toBe('/move/to');
    expect(
      refused(() => edited('a b', { kind: 'move', from: { position: 1, trackId: 'a' }, to: 0 })),
    ).toEqual([
      409,
      '/move/track_id',
      'The playlist changed since you read it: position 1 holds another track now. Read it again and retry.',
    ]);
    expect(refused(() => edited('x', { kind: 'splice', remove: [{ position: 0 }], append: [] }))[2]).toBe(
      'Position 0 is past the end: the playlist shows you no tracks.',
    );
  });
});
