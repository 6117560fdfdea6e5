/**
 * Text normalisation shared by the leakage audit (docs/leakage.md, "Normalisation"). Two
 * strings that differ only in Unicode compatibility form, letter case, spacing, typographic
 * variants of dashes and quotes, or prose punctuation normalise to the same string; operators,
 * brackets and symbols survive, so `not (a and b)` and `not a and b` stay different.
 */

/**
 * One scan: a run of word characters (letters, combining marks, digits, `_`, so `is_tree` is one
 * word), a run of white space, or any other single character.
 */
const SCAN = /([\p{L}\p{M}\p{N}_]+)|(\p{White_Space}+)|([^])/gu;
/**
 * Prose punctuation: marks that punctuate sentences rather than carry meaning. Dropped
 * wherever they occur (so spacing around them cannot matter), except `!` directly before
 * `=`, which is the operator `!=`.
 */
const PROSE_PUNCTUATION = /^[\p{Pi}\p{Pf}.,;:?!¡¿"'`‘’‚‛“”„‟«»‹›]$/u;
/** Dash and minus variants that NFKC leaves alone; all become `-`. */
const DASHES = /[\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]/gu;

export type TokenKind = 'word' | 'symbol';

export interface Token {
  text: string;
  kind: TokenKind;
}

/** NFKC, full lower-case mapping (locale-independent), and one dash form. */
export function foldText(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(DASHES, '-');
}

/**
 * Splits folded text into word tokens (maximal runs of word characters) and symbol tokens
 * (one per remaining non-space character), dropping prose punctuation.
 */
export function tokenize(text: string): Token[] {
  const folded = foldText(text);
  const tokens: Token[] = [];
  for (const m of folded.matchAll(SCAN)) {
    if (m[1] !== undefined) {
      tokens.push({ text: m[1], kind: 'word' });
      continue;
    }
    const c = m[3];
    if (c === undefined) continue; // white space
    if (PROSE_PUNCTUATION.test(c) && !(c === '!' && folded[m.index + 1] === '=')) continue;
    tokens.push({ text: c, kind: 'symbol' });
  }
  return tokens;
}

/** The normalised form: tokens joined by single spaces. Equal forms mean "the same content". */
export function normalizeText(text: string): string {
  return tokenize(text)
    .map((t) => t.text)
    .join(' ');
}
