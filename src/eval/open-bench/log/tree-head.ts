/**
 * Signed tree heads of the open-bench log. The signed bytes are the RFC 8785 canonical JSON of
 * {root_hash, timestamp, tree_size, type}, UTF-8, signed with plain Ed25519 (RFC 8032) by the
 * key published at /.well-known/receipt-keys.json; `type` keeps the signature from being valid
 * as anything else the same key signs.
 */
import { createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import type { JWK } from 'jose';
import { canonicalJson } from '../../../core/canonical-json.js';

export const TREE_HEAD_TYPE = 'open-bench-log-tree-head/v1';

export interface TreeHead {
  tree_size: number;
  /** Lowercase hex of the 32-byte root hash. */
  root_hash: string;
  /** Milliseconds since the Unix epoch. */
  timestamp: number;
}

export interface SignedTreeHead extends TreeHead {
  signature: { alg: 'Ed25519'; kid: string; value: string };
}

/** Exactly the bytes the signature covers. */
export function treeHeadBytes(head: TreeHead): Buffer {
  return Buffer.from(
    canonicalJson({
      type: TREE_HEAD_TYPE,
      tree_size: head.tree_size,
      root_hash: head.root_hash,
      timestamp: head.timestamp,
    }),
    'utf8',
  );
}

export interface TreeHeadSigner {
  sign(head: TreeHead): SignedTreeHead;
}

export function treeHeadSigner(key: { kid: string; privateJwk: JWK }): TreeHeadSigner {
  const privateKey: KeyObject = createPrivateKey({ key: key.privateJwk, format: 'jwk' });
  return {
    sign: (head) => ({
      tree_size: head.tree_size,
      root_hash: head.root_hash,
      timestamp: head.timestamp,
      signature: {
        alg: 'Ed25519',
        kid: key.kid,
        value: sign(null, treeHeadBytes(head), privateKey).toString('base64url'),
      },
    }),
  };
}

const HEX64 = /^[0-9a-f]{64}$/;

/** Undefined when the head is well formed and signed by a key of the set, else why not. */
export function verifyTreeHead(head: unknown, keys: readonly JWK[]): string | undefined {
  const h = head as Partial<SignedTreeHead> | null;
  if (h === null || typeof h !== 'object') return 'the tree head is not a JSON object';
  if (!Number.isSafeInteger(h.tree_size) || h.tree_size! < 0)
    return 'the tree head has no tree_size (a whole number)';
  if (typeof h.root_hash !== 'string' || !HEX64.test(h.root_hash))
    return 'the tree head has no root_hash (64 lowercase hex digits)';
  if (!Number.isSafeInteger(h.timestamp)) return 'the tree head has no timestamp (milliseconds)';
  const sig = h.signature;
  if (!sig || typeof sig.kid !== 'string' || typeof sig.value !== 'string')
    return 'the tree head has no signature {alg, kid, value}';
  const jwk = keys.find((k) => k.kid === sig.kid);
  if (!jwk) return `the tree head is signed by key ${sig.kid}, which is not in the key set`;
  if (jwk.kty !== 'OKP' || jwk.crv !== 'Ed25519') return `key ${sig.kid} is not an Ed25519 key`;
  let publicKey: KeyObject;
  try {
    publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: jwk.x }, format: 'jwk' });
  } catch {
    return `key ${sig.kid} is not a valid Ed25519 public key`;
  }
  const ok = verify(null, treeHeadBytes(h as TreeHead), publicKey, Buffer.from(sig.value, 'base64url'));
  return ok ? undefined : `the tree head's signature does not verify with key ${sig.kid}`;
}
