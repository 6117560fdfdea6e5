/**
 * An RFC 9162 (section 2.1) verifier written for the tests from the RFC's text alone, sharing no
 * code with the service: MTH over a list of entries, the inclusion and consistency verification
 * algorithms, and the Ed25519 check of a tree head over the documented bytes.
 */
import { createHash, createPublicKey, verify } from 'node:crypto';

const sha256 = (...parts: Uint8Array[]): Buffer => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
};
const hex = (h: string): Buffer => Buffer.from(h, 'hex');

export const rfcLeaf = (entry: Uint8Array): Buffer => sha256(Uint8Array.of(0), entry);
export const rfcNode = (l: Uint8Array, r: Uint8Array): Buffer => sha256(Uint8Array.of(1), l, r);

/** MTH(D[n]) by the RFC's recursive definition. */
export function rfcRoot(entries: readonly Uint8Array[]): Buffer {
  if (entries.length === 0) return sha256();
  if (entries.length === 1) return rfcLeaf(entries[0]!);
  let k = 1;
  while (k << 1 < entries.length) k <<= 1;
  return rfcNode(rfcRoot(entries.slice(0, k)), rfcRoot(entries.slice(k)));
}

/** 2.1.3.2, step by step. */
export function rfcVerifyInclusion(
  leafIndex: number,
  treeSize: number,
  leafHashHex: string,
  path: readonly string[],
  rootHex: string,
): boolean {
  if (leafIndex >= treeSize) return false;
  let fn = leafIndex;
  let sn = treeSize - 1;
  let r = hex(leafHashHex);
  for (const pHex of path) {
    const p = hex(pHex);
    if (sn === 0) return false;
    if (fn & 1 || fn === sn) {
      r = rfcNode(p, r);
      if (!(fn & 1)) while (!(fn & 1) && fn !== 0) [fn, sn] = [fn >> 1, sn >> 1];
    } else r = rfcNode(r, p);
    [fn, sn] = [fn >> 1, sn >> 1];
  }
  return sn === 0 && r.equals(hex(rootHex));
}

/** 2.1.4.2, step by step. */
export function rfcVerifyConsistency(
  first: number,
  second: number,
  firstRootHex: string,
  secondRootHex: string,
  proof: readonly string[],
): boolean {
  if (first === second) return proof.length === 0 && firstRootHex === secondRootHex;
  let path = proof.map(hex);
  if ((first & (first - 1)) === 0) path = [hex(firstRootHex), ...path];
  if (path.length === 0) return false;
  let fn = first - 1;
  let sn = second - 1;
  while (fn & 1) [fn, sn] = [fn >> 1, sn >> 1];
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) return false;
    if (fn & 1 || fn === sn) {
      fr = rfcNode(c, fr);
      sr = rfcNode(c, sr);
      if (!(fn & 1)) while (!(fn & 1) && fn !== 0) [fn, sn] = [fn >> 1, sn >> 1];
    } else sr = rfcNode(sr, c);
    [fn, sn] = [fn >> 1, sn >> 1];
  }
  return fr.equals(hex(firstRootHex)) && sr.equals(hex(secondRootHex)) && sn === 0;
}

export interface WireTreeHead {
  tree_size: number;
  root_hash: string;
  timestamp: number;
  signature: { alg: string; kid: string; value: string };
}

/** The documented signed bytes, written out by hand (keys in RFC 8785 order). */
export function rfcHeadVerifies(head: WireTreeHead, publicJwk: { x?: string }): boolean {
  const bytes = Buffer.from(
    `{"root_hash":"${head.root_hash}","timestamp":${head.timestamp},"tree_size":${head.tree_size},"type":"open-bench-log-tree-head/v1"}`,
  );
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: publicJwk.x }, format: 'jwk' });
  return verify(null, bytes, key, Buffer.from(head.signature.value, 'base64url'));
}
