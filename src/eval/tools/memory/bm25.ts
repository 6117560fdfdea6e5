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

export function bm25(documents: readonly string[][], query: readonly string[]): Bm25Score[] {
  const terms = [...new Set(query)];
  const n = documents.length;
  const df = new Map<string, number>(terms.map((t) => [t, 0]));
  let totalLength = 0;
  const tfs = documents.map((doc) => {
    totalLength += doc.length;
    const tf = new Map<string, number>();
    for (const w of doc) if (df.has(w)) tf.set(w, (tf.get(w) ?? 0) + 1);
    for (const t of tf.keys()) df.set(t, df.get(t)! + 1);
    return tf;
  });
  const avgdl = n > 0 ? totalLength / n : 0;
  const idf = new Map(terms.map((t) => [t, Math.log(1 + (n - df.get(t)! + 0.5) / (df.get(t)! + 0.5))]));
  return tfs.map((tf, i) => {
    let score = 0;
    const matchedTerms: string[] = [];
    const norm = avgdl > 0 ? 1 - B + (B * documents[i]!.length) / avgdl : 1;
    // Only the query terms the memory holds: a long objective must not cost |terms| per memory.
    for (const [t, f] of tf) {
      matchedTerms.push(t);
      score += (idf.get(t)! * (f * (K1 + 1))) / (f + K1 * norm);
    }
    matchedTerms.sort();
    return { score, matchedTerms };
  });
}
