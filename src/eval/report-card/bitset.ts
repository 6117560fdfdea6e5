/** Fixed-size bitsets over the universe's graph indices. */
export type Bits = Uint32Array;

export function bitsOf(count: number, test: (i: number) => boolean): Bits {
  const bits = new Uint32Array(Math.ceil(count / 32));
  for (let i = 0; i < count; i++) if (test(i)) bits[i >>> 5]! |= 1 << (i & 31);
  return bits;
}

export function popcountBits(bits: Bits): number {
  let c = 0;
  for (let x of bits) {
    x -= (x >>> 1) & 0x55555555;
    x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
    c += (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
  }
  return c;
}

export function andBits(a: Bits, b: Bits): Bits {
  const out = new Uint32Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i]! & b[i]!;
  return out;
}

/** First index set in `a` and not in `b`, or -1. */
export function firstOutside(a: Bits, b: Bits): number {
  for (let w = 0; w < a.length; w++) {
    const x = a[w]! & ~b[w]!;
    if (x !== 0) return w * 32 + (31 - Math.clz32(x & -x));
  }
  return -1;
}
