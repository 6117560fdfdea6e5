/**
 * Protected tokens: literals a section-scoped edit must not drop by accident. Every class is
 * matched within one line (no token spans a line break), which lets a check compare only the
 * lines an edit touches. At any position the first class listed wins, so `v2.3.1` is a version
 * and not three numbers, and `[REQ-12]` is an id and not a number.
 */

export type TokenClass = 'url' | 'inline_code' | 'bracketed_id' | 'date' | 'version' | 'number' | 'phrase';

// Literals, so that eslint-plugin-regexp reviews each one; the month names are spelt out in both
// date forms for the same reason.
const PATTERNS: [TokenClass, RegExp][] = [
  ['url', /\b(?:https?|ftp):\/\/[^\s<>"'\x60]+|\bmailto:[^\s<>"'\x60]+/u],
  ['bracketed_id', /\[\^?[\p{L}\p{N}][\p{L}\p{N}_.:#/-]*\]/u],
  [
    'date',
    /\b\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?\b|\b\d{1,2}\/\d{1,2}\/\d{2,4}\b|\b\d{1,2} (?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.? \d{4}\b|\b(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.? \d{1,2}(?:st|nd|rd|th)?,? \d{4}\b/u,
  ],
  [
    'version',
    /\b[vV]\d+(?:\.\d+)*(?:-[0-9A-Za-z.-]*[0-9A-Za-z])?\b|\b\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]*[0-9A-Za-z])?(?:\+[0-9A-Za-z.-]*[0-9A-Za-z])?\b/u,
  ],
  ['number', /(?<![\p{L}\p{N}_])\d+(?:[.,]\d+)*%?/u],
  // A phrase starts at a word's start: starting inside one re-scans the word's rest from every
  // capital, quadratic on one long capitalised word (docs/safepatch.md, "Protected tokens").
  ['phrase', /(?<![\p{L}\p{N}'’&-])\p{Lu}[\p{L}\p{N}'’&-]*(?:[ \t]+\p{Lu}[\p{L}\p{N}'’&-]*)+/u],
];

// One alternation, one named group per class. Code spans are found first by a linear scan
// (codeSpans): as a regex with a back-reference they take quadratic time on lines of many
// unmatched backtick runs (docs/safepatch.md, "Protected tokens").
export const TOKEN_RE = new RegExp(PATTERNS.map(([cls, re]) => `(?<${cls}>${re.source})`).join('|'), 'gu');

/** Leading words that start sentences and titles, not names: "The Acme Billing Service" protects "Acme Billing Service". */
const LEADING_STOPWORDS = new Set(
  (
    'A An The This That These Those Our Your Their Its My His Her We You They It I In On At For From To With By Of ' +
    'As And Or But If When While Where Why How What Which Who Then Also See Use Note Each Every All Some No Not ' +
    'Only After Before Since Until Please'
  ).split(' '),
);

export interface ProtectedToken {
  cls: TokenClass;
  text: string;
}

export function protectedTokens(text: string): ProtectedToken[] {
  const out: ProtectedToken[] = [];
  // Code spans win over anything inside them; the other classes are matched between them.
  let from = 0;
  for (const [start, end] of codeSpans(text)) {
    matchTokens(text.slice(from, start), out);
    out.push({ cls: 'inline_code', text: text.slice(start, end) });
    from = end;
  }
  matchTokens(from === 0 ? text : text.slice(from), out);
  return out;
}

function matchTokens(text: string, out: ProtectedToken[]): void {
  TOKEN_RE.lastIndex = 0;
  for (let m = TOKEN_RE.exec(text); m; m = TOKEN_RE.exec(text)) {
    const groups = m.groups ?? {};
    const cls = PATTERNS.find(([c]) => groups[c] !== undefined)?.[0];
    if (!cls) continue;
    let value = m[0];
    if (cls === 'url') value = trimUrl(value);
    if (cls === 'bracketed_id' && !/\p{N}/u.test(value)) continue; // [x], [link text]: not an id
    if (cls === 'phrase') {
      const words = value.split(/[ \t]+/);
      while (words.length > 0 && LEADING_STOPWORDS.has(words[0]!)) words.shift();
      if (words.length < 2) continue;
      value = words.join(' ');
    }
    out.push({ cls, text: value });
  }
}

/**
 * Code spans within single lines, as [start, end) offsets: a run of n backticks opens a span
 * that the next run of exactly n backticks on the same line closes (CommonMark's rule), if its
 * content is not only backticks. Linear: each run's next run of the same length is found by one
 * right-to-left pass.
 */
export function codeSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  let lineStart = 0;
  while (lineStart <= text.length) {
    const nl = text.indexOf('\n', lineStart);
    const lineEnd = nl < 0 ? text.length : nl;
    const runs: [number, number][] = [];
    for (let i = text.indexOf('`', lineStart); i >= 0 && i < lineEnd; i = text.indexOf('`', i)) {
      let j = i;
      while (j < lineEnd && text.charCodeAt(j) === 96) j++;
      runs.push([i, j]);
      i = j;
    }
    if (runs.length > 1) {
      const next = new Array<number>(runs.length).fill(-1);
      const lastOfLength = new Map<number, number>();
      for (let k = runs.length - 1; k >= 0; k--) {
        const len = runs[k]![1] - runs[k]![0];
        next[k] = lastOfLength.get(len) ?? -1;
        lastOfLength.set(len, k);
      }
      for (let k = 0; k < runs.length;) {
        const close = next[k]!;
        if (close < 0) {
          k++;
          continue;
        }
        spans.push([runs[k]![0], runs[close]![1]]);
        k = close + 1;
      }
    }
    if (nl < 0) break;
    lineStart = nl + 1;
  }
  return spans;
}

/** Sentence punctuation and unbalanced closing brackets after a URL are not part of it. */
function trimUrl(url: string): string {
  let u = url.replace(/(?<![.,;:!?'"*_])[.,;:!?'"*_]+$/, '');
  for (;;) {
    const last = u[u.length - 1];
    if (last === ')' && count(u, '(') < count(u, ')')) u = u.slice(0, -1);
    else if (last === ']' && count(u, '[') < count(u, ']')) u = u.slice(0, -1);
    else if (last !== undefined && /[.,;:!?]/.test(last)) u = u.slice(0, -1);
    else return u;
  }
}

function count(s: string, ch: string): number {
  let n = 0;
  for (const c of s) if (c === ch) n++;
  return n;
}

export interface TokenChange {
  removed: ProtectedToken[];
  added: ProtectedToken[];
}

/** Multiset difference of the protected tokens of two texts (a token lost once counts once). */
export function tokenChange(before: string, after: string): TokenChange {
  const key = (t: ProtectedToken): string => `${t.cls}\u0000${t.text}`;
  const counts = new Map<string, { token: ProtectedToken; n: number }>();
  for (const t of protectedTokens(before)) {
    const e = counts.get(key(t));
    if (e) e.n++;
    else counts.set(key(t), { token: t, n: 1 });
  }
  const added: ProtectedToken[] = [];
  for (const t of protectedTokens(after)) {
    const e = counts.get(key(t));
    if (e && e.n > 0) e.n--;
    else added.push(t);
  }
  const removed: ProtectedToken[] = [];
  for (const { token, n } of counts.values()) for (let i = 0; i < n; i++) removed.push(token);
  return { removed, added };
}
