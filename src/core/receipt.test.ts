import { describe, expect, it } from 'vitest';
import { canonicalJson, canonicalSha256 } from './canonical-json.js';
import { sealReceipt, sealWithText, verifyReceipt, type Receipt, type ReceiptBody } from './receipt.js';

const body: ReceiptBody = {
  verdict: 'HOLD',
  status: 'HOLD',
  summary: { z: 1, a: 'x' },
  decision_path: [{ rule: 'r', outcome: 'fail', detail: 'd' }],
  items: [
    { item_id: 'b', decision: 'gain', reasons: [] },
    { item_id: 'a', decision: 'both_pass', reasons: ['why'] },
  ],
  result: { nested: { y: [1, 2.5, 'ü'], x: null } },
  next_action: 'n',
};

describe('receipt sealing', () => {
  it('serves exactly the canonical JSON of the receipt it describes', () => {
    const { receipt, text } = sealWithText('gate', { b: 1, a: 2 }, body);
    expect(text).toBe(canonicalJson(receipt));
    expect(receipt.hashes.request_sha256).toBe(canonicalSha256({ a: 2, b: 1 }));
    expect(receipt.hashes.items_sha256).toBe(canonicalSha256(['a', 'b']));
    expect(receipt.hashes.result_sha256).toBe(canonicalSha256(body.result));
    const { receipt_sha256, ...rest } = receipt.hashes;
    expect(receipt_sha256).toBe(canonicalSha256({ ...receipt, hashes: rest }));
  });

  it('verifies its own receipts and names each tampered field', () => {
    const { receipt } = sealWithText('gate', { a: 1 }, body);
    expect(verifyReceipt(receipt, { a: 1 })).toEqual([]);
    expect(verifyReceipt(receipt, { a: 2 }).map((m) => m.field)).toEqual(['hashes.request_sha256']);
    const tampered = structuredClone(receipt);
    tampered.items[0]!.item_id = 'c';
    expect(verifyReceipt(tampered).map((m) => m.field)).toEqual([
      'hashes.items_sha256',
      'hashes.receipt_sha256',
    ]);
    const relabelled = { ...structuredClone(receipt), next_action: 'other' };
    expect(verifyReceipt(relabelled).map((m) => m.field)).toEqual(['hashes.receipt_sha256']);
  });

  it('omits items_sha256 when there are no items, and verification agrees', () => {
    const { receipt } = sealWithText('replay', {}, { ...body, items: [] });
    expect(receipt.hashes.items_sha256).toBeUndefined();
    expect(verifyReceipt(receipt)).toEqual([]);
  });
});

describe('non-ASCII receipts', () => {
  it('seal text whose hashes cover its UTF-8 bytes', () => {
    const nonAscii: ReceiptBody = { ...body, summary: { name: 'Ω — 𝄞 ü' } };
    const { text } = sealReceipt('gate', 'f'.repeat(64), nonAscii);
    const receipt = JSON.parse(text) as Receipt;
    expect(text).toBe(canonicalJson(receipt));
    expect(verifyReceipt(receipt)).toEqual([]);
  });
});
