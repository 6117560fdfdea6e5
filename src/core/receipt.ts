/**
 * The receipt envelope shared by every verifier tool (design: eval-tools.md, "Receipt
 * envelope"). A tool computes a `ReceiptBody` as a pure function of its request; `seal`
 * adds the envelope fields and the hashes. Nothing time-dependent enters a receipt.
 */
import { createHash } from 'node:crypto';
import { canonicalJson, canonicalSha256, sha256Hex } from './canonical-json.js';

export const RECEIPT_VERSION = 1;
export const SERVICE_VERSION = '0.8.0';

export type Verdict = 'PASS' | 'HOLD' | 'BLOCK';

export interface DecisionStep {
  rule: string;
  outcome: 'pass' | 'fail' | 'skip' | 'info';
  detail: string;
}

export interface ItemDecision {
  item_id: string;
  decision: string;
  reasons: string[];
  [extra: string]: unknown;
}

export interface ReceiptBody {
  verdict?: Verdict;
  status: string;
  summary: Record<string, unknown>;
  decision_path: DecisionStep[];
  items: ItemDecision[];
  result: Record<string, unknown>;
  next_action: string;
}

export interface ReceiptHashes {
  canonicalization: 'RFC8785';
  algorithm: 'sha256';
  request_sha256: string;
  items_sha256?: string;
  result_sha256: string;
  receipt_sha256: string;
}

export interface Receipt extends ReceiptBody {
  receipt_version: number;
  tool: string;
  service_version: string;
  hashes: ReceiptHashes;
}

/** SHA-256 of the canonical JSON array of the item ids, sorted by UTF-16 code units. */
export function itemsSha256(items: readonly ItemDecision[]): string {
  const ids = items.map((i) => i.item_id);
  ids.sort();
  return canonicalSha256(ids);
}

export interface SealedReceipt {
  receipt: Receipt;
  /** The receipt's canonical JSON: the bytes it is served as. */
  text: string;
}

export interface SealedBinary {
  receipt: Receipt;
  /**
   * The receipt's canonical JSON as a binary string: one character per UTF-8 byte, so
   * `Buffer.from(binary, 'latin1')` is the body served. For an ASCII receipt (the usual
   * case) this is the JSON text itself, and no encoding happens anywhere on the way out.
   */
  binary: string;
}

/** `text` as a binary string of its UTF-8 bytes: `text` itself when it is ASCII. */
export function toBinary(text: string): string {
  return Buffer.byteLength(text, 'utf8') === text.length
    ? text
    : Buffer.from(text, 'utf8').toString('latin1');
}

/** The UTF-8 text a binary string holds. */
export function fromBinary(binary: string): string {
  return Buffer.from(binary, 'latin1').toString('utf8');
}

/**
 * Seals a receipt body: adds the envelope and the hashes. `requestSha256` is the hash of the
 * canonical request after defaults (see src/eval/request-hash.ts). Each top-level field is
 * canonicalised once and the pieces reused for the field hashes, the receipt hash and the
 * served body: a 5000-item receipt is several hundred kilobytes, and serialising and hashing
 * it dominate the cost of cheap tools. Pieces are binary strings, hashed as latin1 (their
 * bytes exactly), so an ASCII receipt is never encoded.
 */
export function sealReceipt(tool: string, requestSha256: string, body: ReceiptBody): SealedBinary {
  const fields: Record<string, unknown> = {
    receipt_version: RECEIPT_VERSION,
    tool,
    service_version: SERVICE_VERSION,
    ...(body.verdict !== undefined ? { verdict: body.verdict } : {}),
    status: body.status,
    summary: body.summary,
    decision_path: body.decision_path,
    items: body.items,
    result: body.result,
    next_action: body.next_action,
  };
  const parts = new Map<string, string>();
  for (const [k, v] of Object.entries(fields)) parts.set(k, toBinary(canonicalJson(v)));
  const hashesWithout: Omit<ReceiptHashes, 'receipt_sha256'> = {
    canonicalization: 'RFC8785',
    algorithm: 'sha256',
    request_sha256: requestSha256,
    ...(body.items.length > 0 ? { items_sha256: itemsSha256(body.items) } : {}),
    result_sha256: createHash('sha256').update(parts.get('result')!, 'latin1').digest('hex'),
  };
  // The receipt hash covers the canonical text with `hashes` lacking receipt_sha256; the
  // served body is the same pieces with it. Hash the pieces in order instead of building
  // that text too. Keys and hashes are ASCII.
  const keys = [...parts.keys(), 'hashes'].sort();
  const pieces = (hashesJson: string): string[] =>
    keys.map(
      (k, i) => `${i === 0 ? '{' : ','}${JSON.stringify(k)}:${k === 'hashes' ? hashesJson : parts.get(k)!}`,
    );
  const digest = createHash('sha256');
  for (const piece of pieces(canonicalJson(hashesWithout))) digest.update(piece, 'latin1');
  digest.update('}');
  const hashes: ReceiptHashes = { ...hashesWithout, receipt_sha256: digest.digest('hex') };
  const binary = pieces(canonicalJson(hashes)).join('') + '}';
  return { receipt: { ...(fields as unknown as Omit<Receipt, 'hashes'>), hashes }, binary };
}

/** `sealReceipt` for a request object (hashed here, in TypeScript), with the body as text. */
export function sealWithText(tool: string, request: unknown, body: ReceiptBody): SealedReceipt {
  const { receipt, binary } = sealReceipt(tool, canonicalSha256(request), body);
  return { receipt, text: fromBinary(binary) };
}

export interface HashMismatch {
  field: string;
  expected: string;
  actual: string | undefined;
}

/**
 * Recomputes every hash of a saved receipt; `request` (optional) is the request after
 * defaults, to check `request_sha256` too. Returns the fields that differ.
 */
export function verifyReceipt(receipt: Receipt, request?: unknown): HashMismatch[] {
  const bad: HashMismatch[] = [];
  const h = receipt.hashes ?? ({} as Partial<ReceiptHashes>);
  const check = (field: string, expected: string, actual: string | undefined): void => {
    if (expected !== actual) bad.push({ field, expected, actual });
  };
  if (h.canonicalization !== 'RFC8785')
    bad.push({ field: 'hashes.canonicalization', expected: 'RFC8785', actual: String(h.canonicalization) });
  if (h.algorithm !== 'sha256')
    bad.push({ field: 'hashes.algorithm', expected: 'sha256', actual: String(h.algorithm) });
  if (request !== undefined) check('hashes.request_sha256', canonicalSha256(request), h.request_sha256);
  if (Array.isArray(receipt.items) && receipt.items.length > 0) {
    check('hashes.items_sha256', itemsSha256(receipt.items), h.items_sha256);
  } else if (h.items_sha256 !== undefined) {
    bad.push({
      field: 'hashes.items_sha256',
      expected: '(absent: receipt has no items)',
      actual: h.items_sha256,
    });
  }
  check('hashes.result_sha256', canonicalSha256(receipt.result), h.result_sha256);
  const { receipt_sha256: claimed, ...rest } = h;
  check('hashes.receipt_sha256', sha256Hex(canonicalJson({ ...receipt, hashes: rest })), claimed);
  return bad;
}
