/**
 * Tier 1, exact identity: an exposure row with the exam row's identity, or with the same
 * SHA-256 of the normalised content, is the exam item itself. Hash look-ups, no pairs. Equal
 * SHA-256 digests mean equal normalised texts, so the index keys on the normalised text and the
 * digest is computed only for the rows it quarantines (it goes in the receipt).
 */
import { KeyIndex, type Match } from './matches.js';
import type { AuditRow, ExposureAuditRow } from './rows.js';

export class ExactTier {
  private readonly byId = new KeyIndex();
  private readonly byContent = new KeyIndex();

  constructor(private readonly exposure: readonly ExposureAuditRow[]) {
    for (const r of exposure) {
      if (r.id !== undefined) this.byId.add(r.id, r.index);
      if (r.text !== undefined && r.text.normalized !== '') this.byContent.add(r.text.normalized, r.index);
    }
  }

  /** Every exposure row that matches, in exposure order, each with all the evidence it gives. */
  matches(row: AuditRow): Match[] {
    const found = new Map<number, Match>();
    const note = (index: number, evidence: 'identity' | 'content_hash'): void => {
      const m = found.get(index);
      if (m) m.evidence.push(evidence);
      else
        // Keys in canonical (sorted) order, as a receipt writes them (no copy when sealing).
        found.set(index, {
          evidence: [evidence],
          exposure_index: index,
          score: 1,
          source: this.exposure[index]!.source,
        });
    };
    if (row.id !== undefined) for (const i of this.byId.get(row.id)) note(i, 'identity');
    if (row.text !== undefined)
      for (const i of this.byContent.get(row.text.normalized)) note(i, 'content_hash');
    return [...found.values()].sort((a, b) => a.exposure_index - b.exposure_index);
  }
}
