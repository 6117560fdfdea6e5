/**
 * A receipt's `items` written straight to canonical JSON while a tool produces them, for
 * tools whose receipts list thousands of items of one shape (the gate: up to 5000). Building
 * 5000 objects only to serialise them again costs more than the decision itself (measured on
 * the gate: objects then canonicalJson ~1.9 ms plus their garbage; strings ~1.1 ms).
 *
 * The tool supplies each item's canonical JSON (keys in UTF-16 order, JSON.stringify's
 * string and number forms, no whitespace) and is responsible for it: its tests must compare
 * the output with canonicalJson of the same items as objects. `jsonString` helps.
 */

import type { ItemDecision, PrewrittenItems } from '../../core/receipt.js';

/** Strings JSON.stringify writes unchanged between quotes (no escapes, ASCII). */
const PLAIN = /^[\u0020\u0021\u0023-\u005b\u005d-\u007e]*$/;

/** JSON.stringify(s), without the call for the common plain ASCII string. */
export function jsonString(s: string): string {
  return PLAIN.test(s) ? `"${s}"` : JSON.stringify(s);
}

export class ItemsWriter implements PrewrittenItems {
  private readonly parts: string[] = [];
  private readonly itemIds: string[] = [];
  private idsSorted = true;

  get length(): number {
    return this.parts.length;
  }

  /** The item ids in the order added. */
  get ids(): readonly string[] {
    return this.itemIds;
  }

  /** Whether ids were added in UTF-16 order (then items_sha256 needs no sort). */
  get sortedById(): boolean {
    return this.idsSorted;
  }

  /** Adds one item: its id and its canonical JSON object text. */
  add(id: string, json: string): void {
    const last = this.itemIds[this.itemIds.length - 1];
    if (last !== undefined && !(last < id)) this.idsSorted = false;
    this.itemIds.push(id);
    this.parts.push(json);
  }

  /** The canonical JSON array of the items. */
  json(): string {
    return `[${this.parts.join(',')}]`;
  }

  /** The items as objects, parsed back from the text (for tests; not the serving path). */
  decisions(): ItemDecision[] {
    return JSON.parse(this.json()) as ItemDecision[];
  }
}
