import { describe, expect, it } from 'vitest';
import { characterCount, cutText } from './text-length.js';

describe('text length in characters', () => {
  it('counts code points as the schemas do, a lone surrogate as one', () => {
    expect(characterCount('a🎵b')).toBe(3);
    expect(characterCount('a' + '🎵'.repeat(100))).toBe(101);
    expect(characterCount('\ud83c')).toBe(1);
    expect(characterCount('')).toBe(0);
  });

  it('cuts on code points and never splits a surrogate pair', () => {
    expect(cutText('a' + '🎵'.repeat(100), 3)).toBe('a🎵🎵');
    expect(cutText('🎵🎵', 1)).toBe('🎵');
    expect(cutText('abc', 10)).toBe('abc');
    const cut = cutText('a' + '🎵'.repeat(1000), 200);
    expect(characterCount(cut)).toBe(200);
    expect(cut.endsWith('🎵')).toBe(true);
  });
});
