/**
 * Recomputes a saved receipt's hashes in the browser, by the rules of src/core/receipt.ts:
 * RFC 8785 canonical JSON (the `canonicalize` package) and SHA-256 from WebCrypto. Uses only
 * globals that browsers and Node share, so the tests compare it with the server's sealing.
 */
import canonicalize from 'canonicalize';

export interface HashCheck {
  field: string;
  /** What the receipt states. */
  stated: string | undefined;
  /** What this page computed. */
  computed: string;
  ok: boolean;
}

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

// The package's typings describe an ES default export; under Node's CommonJS interop the module is the function.
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-assertion -- needed by the Node project's view
const serialize = canonicalize as unknown as (value: unknown) => string | undefined;

export function canonical(value: unknown): string {
  const text = serialize(value);
  if (text === undefined) throw new Error('the value has no canonical JSON form');
  return text;
}

type Json = Record<string, unknown>;

/** Every hash of the receipt, recomputed; throws when the text is not a receipt. */
export async function checkReceipt(text: string): Promise<HashCheck[]> {
  let receipt: unknown;
  try {
    receipt = JSON.parse(text);
  } catch (err) {
    throw new Error(`not JSON: ${(err as Error).message}`, { cause: err });
  }
  if (receipt === null || typeof receipt !== 'object' || Array.isArray(receipt))
    throw new Error('not a receipt: the file holds no JSON object');
  const r = receipt as Json;
  const hashes = r.hashes;
  if (hashes === null || typeof hashes !== 'object' || Array.isArray(hashes))
    throw new Error('not a receipt: no "hashes" object');
  const h = hashes as Json;
  const stated = (key: string): string | undefined => (typeof h[key] === 'string' ? h[key] : undefined);
  const checks: HashCheck[] = [];
  const add = (field: string, computed: string): void => {
    checks.push({ field, stated: stated(field), computed, ok: stated(field) === computed });
  };
  checks.push({
    field: 'canonicalization',
    stated: stated('canonicalization'),
    computed: 'RFC8785',
    ok: h.canonicalization === 'RFC8785',
  });
  checks.push({
    field: 'algorithm',
    stated: stated('algorithm'),
    computed: 'sha256',
    ok: h.algorithm === 'sha256',
  });
  const items = Array.isArray(r.items) ? (r.items as unknown[]) : [];
  if (items.length > 0) {
    const ids = items.map((item) => (item as Json | null)?.item_id);
    if (ids.some((id) => typeof id !== 'string'))
      throw new Error('not a receipt: an item has no string item_id');
    // Sorted by UTF-16 code units, as the server does; an array of strings is already canonical.
    add('items_sha256', await sha256Hex(JSON.stringify((ids as string[]).sort())));
  } else if (h.items_sha256 !== undefined) {
    checks.push({
      field: 'items_sha256',
      stated: stated('items_sha256'),
      computed: '(absent: no items)',
      ok: false,
    });
  }
  add('result_sha256', await sha256Hex(canonical(r.result)));
  const rest = Object.fromEntries(Object.entries(h).filter(([key]) => key !== 'receipt_sha256'));
  add('receipt_sha256', await sha256Hex(canonical({ ...r, hashes: rest })));
  return checks;
}
