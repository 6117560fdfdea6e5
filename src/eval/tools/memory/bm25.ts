/**
 * Okapi BM25 with the memories as the corpus and the objective as the query (k1 = 1.2,
 * b = 0.75, IDF = ln(1 + (N - df + 0.5) / (df + 0.5)), which is never negative).
 */

export const K1 = 1.2;
export const B = 0.75;

export interface Bm25Score {
  score: number;
  matchedTerms: string[];
}

/**
 * Scores every document, given as word ids into `words`, with a word -> term mapping (null:
 * not a term).
 * Terms are derived in one pass per document and only query terms are counted, so no
 * per-document term array or map is built.
 */
export function bm25(
  documents: readonly (readonly number[])[],
  words: readonly string[],
  termOf: (word: string) => string | null,
  query: readonly string[],
): Bm25Score[] {
  const slot = new Map<string, number>();
  const terms: string[] = [];
  for (const t of query)
    if (!slot.has(t)) {
      slot.set(t, terms.length);
      terms.push(t);
    }
  const n = documents.length;
  const df = new Float64Array(terms.length);
  const lengths = new Float64Array(n);
  // Per document: matched query-term slots in order of first occurrence (the order the sum
  // runs in), and their counts.
  const hits: number[][] = new Array<number[]>(n);
  const counts: number[][] = new Array<number[]>(n);
  // Where slot s sits in the current document's hits (valid when seenIn[s] === d): O(1) per word.
  const seenIn = new Int32Array(terms.length).fill(-1);
  const position = new Int32Array(terms.length);
  let totalLength = 0;
  // Per word id: NOT_A_TERM, OTHER_TERM, or the slot of its query term (UNSET until seen).
  const codes = new Int32Array(words.length).fill(UNSET);
  for (let d = 0; d < n; d++) {
    const doc = documents[d]!;
    let length = 0;
    let docHits: number[] | undefined;
    let docCounts: number[] | undefined;
    for (let k = 0; k < doc.length; k++) {
      const id = doc[k]!;
      let s = codes[id]!;
      if (s === UNSET) {
        const t = termOf(words[id]!);
        s = t === null ? NOT_A_TERM : (slot.get(t) ?? OTHER_TERM);
        codes[id] = s;
      }
      if (s === NOT_A_TERM) continue;
      length++;
      if (s === OTHER_TERM) continue;
      if (seenIn[s] === d) {
        docCounts![position[s]!]!++;
        continue;
      }
      seenIn[s] = d;
      docHits ??= [];
      docCounts ??= [];
      position[s] = docHits.length;
      docHits.push(s);
      docCounts.push(1);
    }
    hits[d] = docHits ?? EMPTY;
    counts[d] = docCounts ?? EMPTY;
    if (docHits) for (const s of docHits) df[s]!++;
    lengths[d] = length;
    totalLength += length;
  }
  const avgdl = n > 0 ? totalLength / n : 0;
  const idf = new Float64Array(terms.length);
  for (let s = 0; s < terms.length; s++) idf[s] = Math.log(1 + (n - df[s]! + 0.5) / (df[s]! + 0.5));
  const out = new Array<Bm25Score>(n);
  for (let d = 0; d < n; d++) {
    const docHits = hits[d]!;
    if (docHits.length === 0) {
      out[d] = { score: 0, matchedTerms: [] };
      continue;
    }
    const docCounts = counts[d]!;
    const norm = avgdl > 0 ? 1 - B + (B * lengths[d]!) / avgdl : 1;
    let score = 0;
    const matchedTerms: string[] = [];
    // Only the query terms the memory holds: a long objective must not cost |terms| per memory.
    for (let k = 0; k < docHits.length; k++) {
      const s = docHits[k]!;
      const f = docCounts[k]!;
      matchedTerms.push(terms[s]!);
      score += (idf[s]! * (f * (K1 + 1))) / (f + K1 * norm);
    }
    matchedTerms.sort();
    out[d] = { score, matchedTerms };
  }
  return out;
}

const EMPTY: number[] = [];
const UNSET = -3;
const NOT_A_TERM = -2;
const OTHER_TERM = -1;
