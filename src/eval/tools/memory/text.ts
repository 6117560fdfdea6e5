/** Tokenisation shared by BM25, entity matching and token costs. Deterministic, locale-free. */

export const WORD = /[\p{L}\p{N}]+/gu;

/**
 * Lower-cased letter/digit runs. ASCII text (the common case) is scanned by character code,
 * which yields exactly the regex's tokens without its Unicode-property cost; any non-ASCII
 * character falls back to the regex.
 */
export function words(text: string): string[] {
  const lower = text.toLowerCase();
  const out: string[] = [];
  let start = -1;
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charCodeAt(i);
    if (c > 127) return lower.match(WORD) ?? [];
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      out.push(lower.slice(start, i));
      start = -1;
    }
  }
  if (start >= 0) out.push(lower.slice(start));
  return out;
}

/** Token cost of a memory: its whitespace-separated words. */
export function tokenCost(text: string): number {
  let n = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const space =
      c === 32 || (c >= 9 && c <= 13) || c === 0xa0 || c === 0x2028 || c === 0x2029 || c === 0x3000;
    if (!space && !inWord) n++;
    inWord = !space;
  }
  return n;
}

/** An entity's comparable form: its words, lower-cased, single-spaced ("Acme-Billing" = "acme billing"). */
export function entityKey(entity: string): string {
  return words(entity).join(' ');
}

// Function words carry no topical signal; dropping them keeps BM25 from rewarding "the".
export const STOPWORDS = new Set(
  (
    'a an the and or but if then else of to in on at by for with from into onto as is are was were be been being ' +
    'do does did has have had it its this that these those there here what which who whom whose when where why how ' +
    'i me my we our you your he him his she her they them their not no nor so than too very can could should would ' +
    'will shall may might must about after before over under again further once all any both each few more most ' +
    'other some such only own same just also'
  ).split(' '),
);

/** Terms for BM25: words without function words, with a light plural fold ("invoices" = "invoice"). */
export function contentTerms(text: string | readonly string[]): string[] {
  const out: string[] = [];
  for (const w of typeof text === 'string' ? words(text) : text) {
    const t = termOf(w);
    if (t !== null) out.push(t);
  }
  return out;
}

/** A word's BM25 term, or null for a function word. */
export function termOf(w: string): string | null {
  return STOPWORDS.has(w) ? null : foldPlural(w);
}

function foldPlural(w: string): string {
  if (w.length <= 3 || !w.endsWith('s') || w.endsWith('ss') || w.endsWith('us') || w.endsWith('is')) return w;
  if (w.endsWith('ies') && w.length > 4) return w.slice(0, -3) + 'y';
  return w.slice(0, -1);
}

/** What findEntities needs to know about a set of entity keys. */
export interface EntityIndex {
  keys: ReadonlySet<string>;
  /** First word of every key: spans starting elsewhere are skipped. */
  firstWords: ReadonlySet<string>;
  maxWords: number;
}

export function entityIndex(keys: ReadonlySet<string>, maxWordsCap: number): EntityIndex {
  const firstWords = new Set<string>();
  let maxWords = 0;
  for (const k of keys) {
    const parts = k.split(' ');
    firstWords.add(parts[0]!);
    maxWords = Math.max(maxWords, parts.length);
  }
  return { keys, firstWords, maxWords: Math.min(maxWords, maxWordsCap) };
}

/**
 * Entity keys of `index` that occur in the (lower-cased) words `ws` as whole word sequences,
 * scanning every start position for spans up to the longest key.
 */
export function findEntities(ws: readonly string[], index: EntityIndex): Set<string> {
  const found = new Set<string>();
  const { keys: vocabulary, firstWords, maxWords } = index;
  if (vocabulary.size === 0) return found;
  for (let i = 0; i < ws.length; i++) {
    if (!firstWords.has(ws[i]!)) continue;
    let span = ws[i]!;
    for (let len = 1; len <= maxWords && i + len <= ws.length; len++) {
      if (len > 1) span += ' ' + ws[i + len - 1]!;
      if (vocabulary.has(span)) found.add(span);
    }
  }
  return found;
}

/**
 * findEntities over interned words (ids into `words`; `first[id]` is 1 when the word starts
 * some key), null when nothing is found: most memories name no target entity.
 */
export function findEntityIds(
  ids: readonly number[],
  words: readonly string[],
  first: Uint8Array,
  index: EntityIndex,
): Set<string> | null {
  let found: Set<string> | null = null;
  const { keys: vocabulary, maxWords } = index;
  if (vocabulary.size === 0) return found;
  for (let i = 0; i < ids.length; i++) {
    if (first[ids[i]!] !== 1) continue;
    let span = words[ids[i]!]!;
    for (let len = 1; len <= maxWords && i + len <= ids.length; len++) {
      if (len > 1) span += ' ' + words[ids[i + len - 1]!]!;
      if (vocabulary.has(span)) (found ??= new Set<string>()).add(span);
    }
  }
  return found;
}
