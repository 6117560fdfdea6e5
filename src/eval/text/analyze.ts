/**
 * One pass over a content field for the leakage audit: the normalised form, its SHA-256 and
 * its term set, from a single tokenisation.
 */
import { createHash } from 'node:crypto';
import { tokenize } from './normalize.js';
import { termsOfTokens } from './terms.js';

export interface AnalyzedText {
  normalized: string;
  sha256: string;
  terms: string[];
}

export function sha256Utf8(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export function analyzeText(text: string): AnalyzedText {
  const tokens = tokenize(text);
  const normalized = tokens.map((t) => t.text).join(' ');
  return { normalized, sha256: sha256Utf8(normalized), terms: termsOfTokens(tokens) };
}
