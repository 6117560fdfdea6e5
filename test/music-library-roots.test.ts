/** The one containment rule for LIBRARY_IMPORT_ROOTS and the library walk (repositories/library-roots.ts). */
import { describe, expect, it } from 'vitest';
import { isUnder } from '../src/music/repositories/library-roots.js';

describe('isUnder', () => {
  it('holds the root and what lies below it, not a sibling that shares its prefix', () => {
    expect(isUnder('/srv/music', '/srv/music')).toBe(true);
    expect(isUnder('/srv/music/a/b.flac', '/srv/music')).toBe(true);
    expect(isUnder('/srv/music-old/b.flac', '/srv/music')).toBe(false);
    expect(isUnder('/srv', '/srv/music')).toBe(false);
  });

  it('a root of "/" holds every absolute path', () => {
    expect(isUnder('/srv/music', '/')).toBe(true);
    expect(isUnder('/', '/')).toBe(true);
  });
});
