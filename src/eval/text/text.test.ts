import { describe, expect, it } from 'vitest';
import { analyzeText, sha256Utf8 } from './analyze.js';
import { foldText, normalizeText, tokenize } from './normalize.js';
import { termSet } from './terms.js';

describe('normalizeText', () => {
  it('ignores case, spacing and line breaks', () => {
    expect(normalizeText('  What IS the\tsum\nof 2 and 3 ')).toBe(
      normalizeText('what is the sum of 2 and 3'),
    );
  });

  it('applies NFKC: full-width letters, ligatures and compatibility digits fold', () => {
    expect(normalizeText('ＦＩＮＤ the ﬁrst ２ primes')).toBe('find the first 2 primes');
  });

  it('drops prose punctuation wherever it stands, so its spacing cannot matter', () => {
    const forms = ['Hello, world!', 'hello world', 'Hello ,world !', '“Hello” — world?'];
    expect(normalizeText(forms[0]!)).toBe('hello world');
    expect(normalizeText(forms[1]!)).toBe('hello world');
    expect(normalizeText(forms[2]!)).toBe('hello world');
    // The em dash becomes "-", which is kept (it can be a minus sign).
    expect(normalizeText(forms[3]!)).toBe('hello - world');
  });

  it('keeps operators, brackets and symbols, so different expressions stay different', () => {
    expect(normalizeText('not (a and b)')).not.toBe(normalizeText('not a and b'));
    // Each symbol is its own token, so spacing inside operators cannot matter either.
    expect(normalizeText('n != 3')).toBe('n ! = 3');
    expect(normalizeText('n!=3')).toBe('n ! = 3');
    expect(normalizeText('n != 3')).not.toBe(normalizeText('n = 3'));
    expect(normalizeText('max_degree<=2')).toBe(normalizeText('max_degree <= 2'));
    expect(normalizeText('max_degree <= 2')).not.toBe(normalizeText('max_degree >= 2'));
    expect(normalizeText('2+2')).toBe('2 + 2');
  });

  it('unifies dash and minus variants', () => {
    expect(foldText('a \u2212 b \u2013 c')).toBe('a - b - c');
  });

  it('tokenises words (with underscores and digits) and symbols', () => {
    expect(tokenize('is_tree and n>=4')).toEqual([
      { text: 'is_tree', kind: 'word' },
      { text: 'and', kind: 'word' },
      { text: 'n', kind: 'word' },
      { text: '>', kind: 'symbol' },
      { text: '=', kind: 'symbol' },
      { text: '4', kind: 'word' },
    ]);
  });
});

describe('termSet', () => {
  it('keeps distinct non-stop words in first-occurrence order, numbers included', () => {
    expect(termSet('What is the sum of the first 10 primes and the first 10 squares?')).toEqual([
      'sum',
      'first',
      '10',
      'primes',
      'squares',
    ]);
  });
});

describe('analyzeText', () => {
  it('normalises case and spacing variants to one form, and one SHA-256', () => {
    const a = analyzeText('Compute  THE derivative of x^2.');
    const b = analyzeText('compute the derivative of x ^ 2');
    expect(a.normalized).toBe(b.normalized);
    expect(sha256Utf8(a.normalized)).toMatch(/^[0-9a-f]{64}$/);
    expect(analyzeText('compute the derivative of x ^ 3').normalized).not.toBe(a.normalized);
  });

  it('gives exactly normalizeText and termSet, on the ASCII fast path and off it', () => {
    const samples = [
      'Is_Tree AND n>=4, or not (a != b)?',
      'He said: "it\'s 3.14"! Right...',
      '  tabs\tand\r\nnewlines\vhere  ',
      'ＦＵＬＬ width — and “quotes” café naïve',
      'x\u2212y \u00bf\u00a1 ok ¿que? 10 10 ten',
      '',
      '?!',
      'a!=b a! =b',
    ];
    for (const s of samples) {
      expect(analyzeText(s), s).toEqual({ normalized: normalizeText(s), terms: termSet(s) });
    }
  });

  it('agrees with the Unicode tokenizer on random ASCII text (seeded)', () => {
    let seed = 12345;
    const rnd = (): number => {
      seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
      return seed / 2 ** 32;
    };
    const alphabet = 'abcXYZ019_ \t\n.,;:?!=<>()[]-+*/"\'`#@&|~^%$\\';
    for (let k = 0; k < 500; k++) {
      let s = '';
      const len = Math.floor(rnd() * 40);
      for (let i = 0; i < len; i++) s += alphabet[Math.floor(rnd() * alphabet.length)]!;
      expect(analyzeText(s), JSON.stringify(s)).toEqual({ normalized: normalizeText(s), terms: termSet(s) });
    }
  });
});
