/**
 * RFC 9162 section 2.1 Merkle trees: leaf and node hashes, which subtree hashes an inclusion or
 * consistency proof consists of (as ranges of leaves), how a range's hash is made of stored
 * complete subtrees, and the RFC's two verification algorithms. Pure; the store is elsewhere.
 */
import { createHash } from 'node:crypto';

/** A complete, aligned subtree: leaves [index * 2^level, (index + 1) * 2^level). */
export interface NodeKey {
  level: number;
  index: number;
}

/** Leaves [start, end) of the tree, as in MTH(D[start:end]). */
export interface LeafRange {
  start: number;
  end: number;
}

export function leafHash(entry: Uint8Array): Buffer {
  return createHash('sha256').update(Buffer.of(0)).update(entry).digest();
}

export function nodeHash(left: Uint8Array, right: Uint8Array): Buffer {
  return createHash('sha256').update(Buffer.of(1)).update(left).update(right).digest();
}

/** The largest power of two smaller than n (n > 1), the RFC's k. */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/** RFC 9162 2.1.3.1 PATH(m, D[n]) as ranges, leaf side first. */
export function inclusionRanges(m: number, n: number): LeafRange[] {
  const out: LeafRange[] = [];
  let start = 0;
  let end = n;
  let index = m;
  while (end - start > 1) {
    const k = splitPoint(end - start);
    if (index < k) {
      out.push({ start: start + k, end });
      end = start + k;
    } else {
      out.push({ start, end: start + k });
      start += k;
      index -= k;
    }
  }
  return out.reverse();
}

/** RFC 9162 2.1.4.1 PROOF(m, D[n]) = SUBPROOF(m, D[n], true) as ranges, in the RFC's order. */
export function consistencyRanges(m: number, n: number): LeafRange[] {
  const out: LeafRange[] = [];
  let start = 0;
  let size = n;
  let first = m;
  let complete = true;
  while (first !== size) {
    const k = splitPoint(size);
    if (first <= k) {
      out.push({ start: start + k, end: start + size });
      size = k;
    } else {
      out.push({ start, end: start + k });
      start += k;
      size -= k;
      first -= k;
      complete = false;
    }
  }
  if (!complete) out.push({ start, end: start + size });
  return out.reverse();
}

const isPowerOfTwo = (n: number): boolean => n > 0 && (n & (n - 1)) === 0;

/** The stored complete subtrees whose hashes make up MTH(D[start:end]), left to right. */
export function rangeNodes(range: LeafRange): NodeKey[] {
  const size = range.end - range.start;
  if (isPowerOfTwo(size) && range.start % size === 0)
    return [{ level: Math.log2(size), index: range.start / size }];
  const k = splitPoint(size);
  return [
    ...rangeNodes({ start: range.start, end: range.start + k }),
    ...rangeNodes({ start: range.start + k, end: range.end }),
  ];
}

export const nodeId = (key: NodeKey): string => `${key.level}:${key.index}`;

/** MTH(D[start:end]) from the stored subtree hashes (`nodes` keyed by nodeId). */
export function rangeHash(range: LeafRange, nodes: ReadonlyMap<string, Buffer>): Buffer {
  const size = range.end - range.start;
  if (isPowerOfTwo(size) && range.start % size === 0) {
    const hash = nodes.get(nodeId({ level: Math.log2(size), index: range.start / size }));
    if (!hash) throw new Error(`subtree [${range.start}, ${range.end}) is not stored`);
    return hash;
  }
  const k = splitPoint(size);
  return nodeHash(
    rangeHash({ start: range.start, end: range.start + k }, nodes),
    rangeHash({ start: range.start + k, end: range.end }, nodes),
  );
}

/** The complete subtrees of a tree of `size` leaves (its compact range), largest first. */
export function frontierNodes(size: number): NodeKey[] {
  const out: NodeKey[] = [];
  let start = 0;
  for (let level = 52; level >= 0; level--) {
    const width = 2 ** level;
    if (Math.floor(size / width) % 2 === 1) {
      out.push({ level, index: start / width });
      start += width;
    }
  }
  return out;
}

/** The root from a compact range's hashes (largest subtree first). */
export function rootFromFrontier(hashes: readonly Buffer[]): Buffer {
  if (hashes.length === 0) return createHash('sha256').digest();
  let acc = hashes[hashes.length - 1]!;
  for (let i = hashes.length - 2; i >= 0; i--) acc = nodeHash(hashes[i]!, acc);
  return acc;
}

/** The nodes appending leaf `index` completes (level 1 up), each with its left sibling. */
export function completedByAppend(index: number): { node: NodeKey; left: NodeKey }[] {
  const out: { node: NodeKey; left: NodeKey }[] = [];
  let i = index;
  let level = 0;
  while (i % 2 === 1) {
    out.push({ node: { level: level + 1, index: (i - 1) / 2 }, left: { level, index: i - 1 } });
    i = (i - 1) / 2;
    level += 1;
  }
  return out;
}

/** A compact range kept by a monitor: append leaves, read the root. */
export class CompactRange {
  constructor(
    public size = 0,
    public readonly hashes: Buffer[] = [],
  ) {}

  append(leaf: Buffer): void {
    let hash = leaf;
    let size = this.size;
    while (size % 2 === 1) {
      hash = nodeHash(this.hashes.pop()!, hash);
      size = (size - 1) / 2;
    }
    this.hashes.push(hash);
    this.size += 1;
  }

  root(): Buffer {
    return rootFromFrontier(this.hashes);
  }
}

const lsb = (n: number): boolean => n % 2 === 1;
const half = (n: number): number => Math.floor(n / 2);

/** RFC 9162 2.1.3.2: undefined when the audit path proves the leaf, else why not. */
export function verifyInclusion(
  leafIndex: number,
  treeSize: number,
  leaf: Uint8Array,
  path: readonly Uint8Array[],
  root: Uint8Array,
): string | undefined {
  if (leafIndex >= treeSize) return `leaf index ${leafIndex} is not below tree size ${treeSize}`;
  let fn = leafIndex;
  let sn = treeSize - 1;
  let r: Uint8Array = leaf;
  for (const p of path) {
    if (sn === 0) return 'the audit path is longer than the tree is deep';
    if (lsb(fn) || fn === sn) {
      r = nodeHash(p, r);
      if (!lsb(fn))
        while (!lsb(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
    } else r = nodeHash(r, p);
    fn = half(fn);
    sn = half(sn);
  }
  if (sn !== 0) return 'the audit path is shorter than the tree is deep';
  return Buffer.from(r).equals(Buffer.from(root))
    ? undefined
    : 'the audit path does not lead to the tree head root hash';
}

/** RFC 9162 2.1.4.2: undefined when the proof shows tree `first` is a prefix of tree `second`. */
export function verifyConsistency(
  first: number,
  second: number,
  firstRoot: Uint8Array,
  secondRoot: Uint8Array,
  proof: readonly Uint8Array[],
): string | undefined {
  const same = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a).equals(Buffer.from(b));
  if (first > second) return `the first size ${first} is larger than the second ${second}`;
  if (first === second)
    return proof.length === 0 && same(firstRoot, secondRoot)
      ? undefined
      : 'two heads of the same size with different roots: the log forked';
  if (first === 0) return 'a consistency proof starts at a tree of at least one entry';
  const path = isPowerOfTwo(first) ? [firstRoot, ...proof] : [...proof];
  if (path.length === 0) return 'the consistency proof is empty';
  let fn = first - 1;
  let sn = second - 1;
  while (lsb(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr: Uint8Array = path[0]!;
  let sr: Uint8Array = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) return 'the consistency proof is longer than it should be';
    if (lsb(fn) || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      if (!lsb(fn))
        while (!lsb(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
    } else sr = nodeHash(sr, c);
    fn = half(fn);
    sn = half(sn);
  }
  if (sn !== 0) return 'the consistency proof is shorter than it should be';
  if (!same(fr, firstRoot)) return `the proof does not lead to the root of tree size ${first}`;
  if (!same(sr, secondRoot)) return `the proof does not lead to the root of tree size ${second}`;
  return undefined;
}
