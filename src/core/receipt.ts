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

/** One entry of a receipt's `items`: the item-level decision path. */
export interface ItemDecision {
  item_id: string;
  decision: string;
  reasons: string[];
  [extra: string]: unknown;
}

/** What a tool computes. */
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

/** Kept as the name tools and the registry use for any tool's body. */
export type AnyReceiptBody = ReceiptBody;

/** A receipt as served (and as parsed back from its text). */
export interface Receipt extends Omit<ReceiptBody, 'items'> {
  items: ItemDecision[];
  receipt_version: number;
  tool: string;
  service_version: string;
  hashes: ReceiptHashes;
}

/** SHA-256 of the canonical JSON array of the item ids, sorted by UTF-16 code units. */
export function itemsSha256(items: readonly ItemDecision[]): string {
  const ids = new Array<string>(items.length);
  let sorted = true;
  for (let i = 0; i < items.length; i++) {
    const id = items[i]!.item_id;
    if (typeof id !== 'string') throw new TypeError(`items[${i}].item_id is not a string`);
    ids[i] = id;
    if (i > 0 && ids[i - 1]! > id) sorted = false;
  }
  // Most tools list items in id order already; an array of strings needs no key ordering,
  // so JSON.stringify writes its canonical form directly.
  if (!sorted) ids.sort();
  return sha256Hex(JSON.stringify(ids));
}

export interface SealedReceipt {
  /** The receipt's canonical JSON: what is served. */
  text: string;
  status: string;
  verdict?: Verdict;
}

/**
 * Seals a receipt body: adds the envelope and the hashes. `requestSha256` is the hash of the
 * canonical request after defaults (see src/eval/speed/request-hash.ts). Each top-level field is
 * canonicalised once and the pieces reused for the field hashes, the receipt hash and the
 * served text: a 5000-item receipt is several hundred kilobytes, and serialising and hashing
 * it dominate the cost of cheap tools.
 */
export function sealReceipt(tool: string, requestSha256: string, body: AnyReceiptBody): SealedReceipt {
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
  for (const [k, v] of Object.entries(fields)) parts.set(k, canonicalJson(v));
  const hashesWithout: Omit<ReceiptHashes, 'receipt_sha256'> = {
    canonicalization: 'RFC8785',
    algorithm: 'sha256',
    request_sha256: requestSha256,
    ...(body.items.length > 0 ? { items_sha256: itemsSha256(body.items) } : {}),
    result_sha256: sha256Hex(parts.get('result')!),
  };
  // The receipt hash covers the canonical text with `hashes` lacking receipt_sha256; the
  // served text is the same pieces with it. Hash the pieces in order instead of building
  // that text too.
  const keys = [...parts.keys(), 'hashes'].sort();
  // Separators/keys and values as separate pieces: joining a key to a 300 KB value only to
  // hash it would copy the value once more.
  const pieces = (hashesJson: string): string[] =>
    keys.flatMap((k, i) => [
      `${i === 0 ? '{' : ','}${JSON.stringify(k)}:`,
      k === 'hashes' ? hashesJson : parts.get(k)!,
    ]);
  const digest = createHash('sha256');
  for (const piece of pieces(canonicalJson(hashesWithout))) digest.update(piece, 'utf8');
  digest.update('}');
  const hashes: ReceiptHashes = { ...hashesWithout, receipt_sha256: digest.digest('hex') };
  // '}' joins the pieces rather than being appended: `join(...) + '}'` is a rope every reader
  // (Buffer.from, postMessage, a hash) must first flatten (docs/speed.md#receipt-text-as-one-flat-string).
  const text = [...pieces(canonicalJson(hashes)), '}'].join('');
  return { text, status: body.status, ...(body.verdict !== undefined ? { verdict: body.verdict } : {}) };
}

/**
 * `sealReceipt` for a request object, hashed here in TypeScript, with the receipt parsed
 * back from its text (tests, benchmarks, tools).
 */
export function sealWithText(
  tool: string,
  request: unknown,
  body: AnyReceiptBody,
): { receipt: Receipt; text: string } {
  const { text } = sealReceipt(tool, canonicalSha256(request), body);
  return { receipt: JSON.parse(text) as Receipt, text };
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
