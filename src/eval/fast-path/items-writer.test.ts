import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../core/canonical-json.js';
import { ItemsWriter, jsonString } from './items-writer.js';
import { itemsSha256, sealReceipt, type ItemDecision, type ReceiptBody } from '../../core/receipt.js';

const AWKWARD = [
  'plain',
  'q"uote',
  'back\\slash',
  'tab\there',
  '\u0001ctl',
  '\u007fdel',
  'ü',
  '𝄞',
  '\ud800lone',
  '\u2028',
  '~/',
  '',
];

describe('jsonString', () => {
  it('is JSON.stringify for every kind of string', () => {
    for (const s of AWKWARD) expect(jsonString(s)).toBe(JSON.stringify(s));
  });
});

describe('ItemsWriter', () => {
  const items: ItemDecision[] = AWKWARD.map((id, i) => ({
    decision: i % 2 ? 'gain' : 'both_pass',
    item_id: id,
    reasons: [],
  }));

  it('joins the items it is given into one JSON array, and knows their ids', () => {
    const w = new ItemsWriter();
    for (const it of items) w.add(it.item_id, canonicalJson(it));
    expect(w.json()).toBe(canonicalJson(items));
    expect(w.decisions()).toEqual(items);
    expect(w.length).toBe(items.length);
    expect(w.ids).toEqual(AWKWARD);
    expect(w.sortedById).toBe(false);
    expect(itemsSha256(w)).toBe(itemsSha256(items));
    const sorted = new ItemsWriter();
    for (const id of ['a', 'b', 'c'])
      sorted.add(id, canonicalJson({ decision: 'x', item_id: id, reasons: [] }));
    expect(sorted.sortedById).toBe(true);
  });

  it('seals to the same receipt text as the same items given as objects', () => {
    const w = new ItemsWriter();
    for (const it of items) w.add(it.item_id, canonicalJson(it));
    const base: Omit<ReceiptBody, 'items'> = {
      status: 'DONE',
      summary: {},
      decision_path: [],
      result: { n: 1 },
      next_action: 'none',
    };
    const a = sealReceipt('gate', 'f'.repeat(64), { ...base, items: w });
    const b = sealReceipt('gate', 'f'.repeat(64), { ...base, items });
    expect(a.text).toBe(b.text);
  });
});
