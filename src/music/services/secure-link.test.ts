import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { secureLinkSignature, signedUrl, verifySecureLink } from './secure-link.js';

const SECRET = 'unit-secret-value';

describe('secure link', () => {
  it('matches the formula base64url(md5(expires + uri + " " + secret)) without padding', () => {
    const expected = createHash('md5')
      .update('1700000000/media/hls/a/b.ts unit-secret-value')
      .digest('base64');
    const sig = secureLinkSignature(1700000000, '/media/hls/a/b.ts', SECRET);
    expect(sig).toBe(
      expected
        .replace(/\+/g, '-')
        .replace(/\//g, '_')
        .replace(/(?<!=)=+$/, ''),
    );
    expect(sig).toHaveLength(22);
  });

  it('builds URLs that verify until they expire, then are "expired"', () => {
    const url = new URL(signedUrl('/media/hls/x.m3u8', SECRET, 3600, 1000), 'http://h');
    const input = {
      uri: url.pathname,
      sig: url.searchParams.get('sig') ?? undefined,
      expires: url.searchParams.get('expires') ?? undefined,
      secret: SECRET,
    };
    expect(input.expires).toBe('4600');
    expect(verifySecureLink({ ...input, nowSeconds: 4600 })).toBe('valid');
    expect(verifySecureLink({ ...input, nowSeconds: 4600.9 })).toBe('valid');
    expect(verifySecureLink({ ...input, nowSeconds: 4601 })).toBe('expired');
  });

  it('is "forbidden" for missing, malformed or wrong parts, expired or not', () => {
    const sig = secureLinkSignature(100, '/p', SECRET);
    const base = { uri: '/p', sig, expires: '100', secret: SECRET, nowSeconds: 50 };
    expect(verifySecureLink(base)).toBe('valid');
    for (const change of [
      { sig: undefined },
      { expires: undefined },
      { expires: '' },
      { expires: '0' },
      { expires: '-100' },
      { expires: '1e3' },
      { expires: '100 ' },
      { sig: sig + 'A' },
      { sig: sig.slice(1) },
      { sig: `${sig}==`.replace(sig[0]!, sig[0] === 'A' ? 'B' : 'A') },
      { uri: '/q' },
      { secret: 'other' },
      { nowSeconds: 500, sig: sig.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')) },
    ]) {
      expect(verifySecureLink({ ...base, ...change }), JSON.stringify(change)).toBe('forbidden');
    }
    expect(verifySecureLink({ ...base, sig: `${sig}==` })).toBe('valid');
  });

  it('refuses every single-character change of the signature, including the last one', () => {
    const sig = secureLinkSignature(100, '/p', SECRET);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let i = 0; i < sig.length; i++) {
      for (const c of alphabet) {
        if (c === sig[i]) continue;
        const changed = sig.slice(0, i) + c + sig.slice(i + 1);
        expect(
          verifySecureLink({ uri: '/p', sig: changed, expires: '100', secret: SECRET, nowSeconds: 50 }),
        ).toBe('forbidden');
      }
    }
  });
});
