/**
 * A published receipt's place in the open-bench transparency log, checked in the browser: the
 * leaf hash SHA-256(0x00 || canonical receipt) and RFC 9162 2.1.3.2's audit path fold with
 * WebCrypto, and the tree head's Ed25519 signature over its documented bytes (docs/open-bench.md#the-log).
 */
import { requestJson } from '../../shared/http';
import { canonical } from './receipt-verify';
import type { PublishedKey } from './signature';

interface TreeHead {
  tree_size: number;
  root_hash: string;
  timestamp: number;
  signature: { alg: string; kid: string; value: string };
}

interface InclusionAnswer {
  leaf_index: number;
  tree_size: number;
  leaf_hash: string;
  audit_path: string[];
  tree_head: TreeHead;
}

const bytesOf = (hex: string): Uint8Array<ArrayBuffer> =>
  Uint8Array.from(hex.match(/../g) ?? [], (b) => parseInt(b, 16));
const hexOf = (buf: ArrayBuffer): string =>
  [...new Uint8Array(buf)].map((b) => b.toString(16).padStart(2, '0')).join('');

async function hashWithPrefix(prefix: number, ...parts: Uint8Array[]): Promise<string> {
  const all = new Uint8Array(1 + parts.reduce((n, p) => n + p.length, 0));
  all[0] = prefix;
  let at = 1;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  return hexOf(await crypto.subtle.digest('SHA-256', all));
}

/** RFC 9162 2.1.3.2: the root the audit path leads to, or undefined when the path is malformed. */
async function foldPath(
  index: number,
  size: number,
  leaf: string,
  path: string[],
): Promise<string | undefined> {
  if (index >= size) return undefined;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of path) {
    if (sn === 0) return undefined;
    if (fn % 2 === 1 || fn === sn) {
      r = await hashWithPrefix(1, bytesOf(p), bytesOf(r));
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else r = await hashWithPrefix(1, bytesOf(r), bytesOf(p));
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  return sn === 0 ? r : undefined;
}

async function headSigned(head: TreeHead, keys: PublishedKey[]): Promise<boolean> {
  const key = keys.find((k) => k.kid === head.signature.kid);
  if (!key) return false;
  const publicKey = await crypto.subtle.importKey(
    'jwk',
    { kty: key.kty, crv: key.crv, x: key.x },
    { name: 'Ed25519' },
    false,
    ['verify'],
  );
  const signed = `{"root_hash":"${head.root_hash}","timestamp":${head.timestamp},"tree_size":${head.tree_size},"type":"open-bench-log-tree-head/v1"}`;
  const sig = Uint8Array.from(atob(head.signature.value.replace(/-/g, '+').replace(/_/g, '/')), (c) =>
    c.charCodeAt(0),
  );
  return crypto.subtle.verify('Ed25519', publicKey, sig, new TextEncoder().encode(signed));
}

/** The sentence to show, after checking; throws with what failed. */
export async function checkInLog(publicId: string): Promise<string> {
  const receipt = await requestJson<unknown>(`/api/open-bench/receipt/${encodeURIComponent(publicId)}`);
  const leaf = await hashWithPrefix(0, new TextEncoder().encode(canonical(receipt)));
  const proof = await requestJson<InclusionAnswer>(`/api/open-bench/log/proof/inclusion?leaf_hash=${leaf}`);
  const root = await foldPath(proof.leaf_index, proof.tree_head.tree_size, leaf, proof.audit_path);
  if (root !== proof.tree_head.root_hash)
    throw new Error(
      'the audit path does not lead to the signed root: this receipt is not in the log as served',
    );
  const { keys } = await requestJson<{ keys: PublishedKey[] }>('/.well-known/receipt-keys.json');
  if (!(await headSigned(proof.tree_head, keys)))
    throw new Error(
      `the tree head's Ed25519 signature does not verify with the published key ${proof.tree_head.signature.kid}`,
    );
  return `Included in the log at index ${proof.leaf_index}, tree head signed at ${new Date(proof.tree_head.timestamp).toISOString()} (a tree of ${proof.tree_head.tree_size} entries; the audit path and the Ed25519 signature were checked in this browser).`;
}
