/** What a match between an exam row and an exposure row says, shared by the three tiers. */

export type Evidence = 'identity' | 'content_hash' | 'fingerprint' | 'text_similarity';

export interface Match {
  exposure_index: number;
  /** The exposure row's `source`, else `path`, else null. */
  source: string | null;
  evidence: Evidence[];
  /** 1 for exact and fingerprint evidence; the similarity score for text similarity. */
  score: number;
  /** Text similarity only: how many terms the two rows share. */
  shared_terms?: number;
}

/** Posting lists keyed by a string: identity, content hash or fingerprint. */
export class KeyIndex {
  private readonly map = new Map<string, number[]>();

  add(key: string, index: number): void {
    const list = this.map.get(key);
    if (list) list.push(index);
    else this.map.set(key, [index]);
  }

  get(key: string): readonly number[] {
    return this.map.get(key) ?? [];
  }
}
