/**
 * Offline receipt verification: recomputes every hash a receipt states, as the service's
 * `receipt verify` command does (RFC 8785 canonical JSON, SHA-256, hex):
 * - `items_sha256`: the item ids, sorted by UTF-16 code units, as a canonical JSON array
 *   (present exactly when the receipt has items);
 * - `result_sha256`: the canonical `result`;
 * - `receipt_sha256`: the canonical receipt whose `hashes` lack `receipt_sha256`;
 * - `request_sha256`, when the caller passes the request after the tool's defaults.
 */
import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical.js';
import type { Receipt } from './types.js';

export interface HashMismatch {
  field: string;
  expected: string;
  actual: string | undefined;
}

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

export function verifyReceipt(receipt: Receipt, requestWithDefaults?: unknown): HashMismatch[] {
  const out: HashMismatch[] = [];
  const hashes = (receipt.hashes ?? {}) as Record<string, unknown>;
  const stated = (field: string): string | undefined =>
    typeof hashes[field] === 'string' ? hashes[field] : undefined;
  const expect = (field: string, expected: string, actual: string | undefined): void => {
    if (expected !== actual) out.push({ field: `hashes.${field}`, expected, actual });
  };
  expect('canonicalization', 'RFC8785', stated('canonicalization'));
  expect('algorithm', 'sha256', stated('algorithm'));
  if (requestWithDefaults !== undefined)
    expect('request_sha256', sha256(canonicalJson(requestWithDefaults)), stated('request_sha256'));
  const items = Array.isArray(receipt.items) ? receipt.items : [];
  if (items.length > 0) {
    const ids = items.map((i) => i.item_id).sort();
    expect('items_sha256', sha256(canonicalJson(ids)), stated('items_sha256'));
  } else if (hashes.items_sha256 !== undefined) {
    out.push({
      field: 'hashes.items_sha256',
      expected: '(absent: no items)',
      actual: stated('items_sha256'),
    });
  }
  expect('result_sha256', sha256(canonicalJson(receipt.result)), stated('result_sha256'));
  const { receipt_sha256: claimed, ...rest } = hashes;
  expect(
    'receipt_sha256',
    sha256(canonicalJson({ ...receipt, hashes: rest })),
    typeof claimed === 'string' ? claimed : undefined,
  );
  return out;
}
