import { describe, expect, it } from 'vitest';
import { analyzeText } from './analyze.js';
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
  it('hashes the normalised form, so case and spacing variants share a hash', () => {
    const a = analyzeText('Compute  THE derivative of x^2.');
    const b = analyzeText('compute the derivative of x ^ 2');
    expect(a.sha256).toBe(b.sha256);
    expect(a.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(analyzeText('compute the derivative of x ^ 3').sha256).not.toBe(a.sha256);
  });
});
