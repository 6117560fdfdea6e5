/**
 * Deterministic randomness for the search: xoshiro128** (32-bit words, so TypeScript and the
 * C++ kernel compute identical streams), seeded per restart by splitmix64 over the request's
 * seed, and an exp(-x) built from + * / only, so that acceptance decisions do not depend on
 * a platform's libm.
 */

/** The four state words of one restart's generator. */
export type PrngState = [number, number, number, number];

const MASK64 = (1n << 64n) - 1n;

function splitmix64(state: bigint): [bigint, bigint] {
  const next = (state + 0x9e3779b97f4a7c15n) & MASK64;
  let z = next;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
  return [next, z ^ (z >> 31n)];
}

/**
 * State for restart `restart` of a request with `seed`, a safe integer (|seed| <= 2^53 - 1).
 * The seed enters as its exact 64-bit two's complement, which is one-to-one on safe integers
 * (negative seeds work), and splitmix64 is a bijection of that word, so distinct seeds give
 * distinct states. Larger doubles are rejected: they are multiples of big powers of two, and
 * reducing them modulo 2^64 would map 1e300, -1e300 and 0 to the same stream. The native
 * kernel receives the state words computed here, so both kernels see the same stream.
 * Restarts get independent streams, which is what lets them run in any order, or in
 * parallel, with the same outcome.
 */
export function restartState(seed: number, restart: number): PrngState {
  if (!Number.isSafeInteger(seed))
    throw new RangeError(`seed must be an integer from -(2^53 - 1) to 2^53 - 1, not ${seed}`);
  const s0 = (BigInt.asUintN(64, BigInt(seed)) ^ (BigInt(restart) * 0xd1b54a32d192ed03n)) & MASK64;
  const [s1, a] = splitmix64(s0);
  const [, b] = splitmix64(s1);
  const words: PrngState = [
    Number(a & 0xffffffffn),
    Number(a >> 32n),
    Number(b & 0xffffffffn),
    Number(b >> 32n),
  ];
  if (words.every((w) => w === 0)) words[0] = 1; // xoshiro's one forbidden state
  return words;
}

export class Xoshiro128 {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

  constructor(state: PrngState) {
    [this.s0, this.s1, this.s2, this.s3] = state;
  }

  /** Next 32-bit unsigned value. */
  next(): number {
    const result = Math.imul(rotl(Math.imul(this.s1, 5), 7), 9) >>> 0;
    const t = this.s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return result;
  }

  /** Uniform in [0, 1), exact multiples of 2^-32. */
  uniform(): number {
    return this.next() / 4294967296;
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/**
 * exp(-x) for x >= 0 to a few 1e-9 relative error: (Taylor series of e^(-x/256))^256.
 * Only + * / so it rounds identically wherever IEEE-754 doubles are used without fused
 * multiply-add (the C++ kernel is compiled with -ffp-contract=off).
 */
const INV7 = 1 / 7;
const INV6 = 1 / 6;
const INV5 = 1 / 5;
const INV4 = 1 / 4;
const INV3 = 1 / 3;
const INV2 = 1 / 2;

export function expNeg(x: number): number {
  if (!(x >= 0)) return 1;
  if (x > 40) return 0;
  const z = x / 256;
  // Multiplying by the reciprocals (correctly rounded constants, the same in C++) instead of
  // dividing keeps this cheap inside the annealing loop.
  let e = 1 - z * INV7;
  e = 1 - z * INV6 * e;
  e = 1 - z * INV5 * e;
  e = 1 - z * INV4 * e;
  e = 1 - z * INV3 * e;
  e = 1 - z * INV2 * e;
  e = 1 - z * e;
  for (let i = 0; i < 8; i++) e = e * e;
  return e;
}
