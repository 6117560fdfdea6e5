import { describe, expect, it } from 'vitest';
import { tokenCost, words } from './text.js';
import { scanWords, WordTable } from './word-table.js';

describe('WordTable and scanWords', () => {
  it('gives each distinct word one id across table growth', () => {
    const table = new WordTable();
    const distinct = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}`);
    const ids = distinct.map((w) => table.idOf(w));
    expect(new Set(ids).size).toBe(5000);
    expect(distinct.map((w) => table.idOf(w))).toEqual(ids);
    expect(ids.map((id) => table.words[id])).toEqual(distinct);
  });

  it('yields exactly the words and token cost of words() and tokenCost()', () => {
    const table = new WordTable();
    const texts = [
      'Deploys  the Invoice-Service v2\tafter 3 retries.',
      'İstanbul straße Café naïve x² ٣٤ — ﬁle K ǅ',
      '  ...  ',
      'a',
      'MiXeD case, MIXED CASE; mixed-case!',
      'emoji😀 next\u00a0word\u2028line',
    ];
    for (const text of texts) {
      const scan = scanWords(text, table);
      expect(scan.ids.map((id) => table.words[id])).toEqual(words(text));
      expect(scan.tokens).toBe(tokenCost(text));
    }
  });
});
