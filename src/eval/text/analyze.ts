/**
 * One pass over a content field for the leakage audit: the normalised form and the term set,
 * from a single scan. ASCII text (nearly all of it) takes a char-code loop; anything else goes
 * through the Unicode tokenizer. Both give exactly what `normalizeText` and `termSet` give.
 */
import { createHash } from 'node:crypto';
import { tokenize } from './normalize.js';
import { STOPWORDS } from './stopwords.js';

export interface AnalyzedText {
  /** Tokens joined by single spaces (normalizeText). */
  normalized: string;
  /** Distinct non-stop words in first-occurrence order (termSet). */
  terms: string[];
}

export function sha256Utf8(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

const ASCII = /^\p{ASCII}*$/u;
const WORD = new Uint8Array(128);
const SPACE = new Uint8Array(128);
const PROSE = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const ch = String.fromCharCode(c);
  WORD[c] = /[a-z0-9_]/.test(ch) ? 1 : 0;
  // The ASCII members of \p{White_Space}: tab, line feed, vertical tab, form feed, carriage return, space.
  SPACE[c] = (c >= 9 && c <= 13) || c === 32 ? 1 : 0;
  PROSE[c] = '.,;:?!"\'`'.includes(ch) ? 1 : 0;
}
const BANG = 33;
const EQUALS = 61;

function analyzeAscii(s: string): AnalyzedText {
  // Tokens are collected and joined once: a flat string hashes fast as a Map key, while
  // repeated concatenation would leave a rope to be flattened later.
  const parts: string[] = [];
  const terms = new Set<string>();
  const n = s.length;
  let i = 0;
  while (i < n) {
    const c = s.charCodeAt(i);
    if (WORD[c]) {
      let j = i + 1;
      while (j < n && WORD[s.charCodeAt(j)]) j++;
      const w = s.slice(i, j);
      parts.push(w);
      if (!STOPWORDS.has(w)) terms.add(w);
      i = j;
    } else {
      if (!SPACE[c] && !(PROSE[c] && !(c === BANG && s.charCodeAt(i + 1) === EQUALS))) parts.push(s[i]!);
      i++;
    }
  }
  return { normalized: parts.join(' '), terms: [...terms] };
}

export function analyzeText(text: string): AnalyzedText {
  if (ASCII.test(text)) return analyzeAscii(text.toLowerCase());
  const tokens = tokenize(text);
  const terms = new Set<string>();
  for (const t of tokens) if (t.kind === 'word' && !STOPWORDS.has(t.text)) terms.add(t.text);
  return { normalized: tokens.map((t) => t.text).join(' '), terms: [...terms] };
}
