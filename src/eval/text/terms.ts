/**
 * Term sets for text similarity (docs/leakage.md, "Terms"): the distinct word tokens of the
 * normalised text, stop words removed. Numbers are terms: "17 + 23" and "18 + 23" differ.
 */
import { tokenize, type Token } from './normalize.js';
import { STOPWORDS } from './stopwords.js';

/** Distinct terms of already tokenised text, in order of first occurrence. */
export function termsOfTokens(tokens: readonly Token[]): string[] {
  const seen = new Set<string>();
  for (const t of tokens) {
    if (t.kind === 'word' && !STOPWORDS.has(t.text)) seen.add(t.text);
  }
  return [...seen];
}

export function termSet(text: string): string[] {
  return termsOfTokens(tokenize(text));
}
