import { describe, expect, it } from 'vitest';
import { keyUnderMount, normaliseRequestPath } from './media-path.js';

describe('normaliseRequestPath', () => {
  it('decodes, merges slashes and resolves dot segments like nginx $uri', () => {
    expect(normaliseRequestPath('/media//hls/./a/../b/%73eg.ts')).toEqual({
      ok: true,
      path: '/media/hls/b/seg.ts',
    });
    expect(normaliseRequestPath('/images/a/')).toEqual({ ok: true, path: '/images/a/' });
  });
  it('refuses climbing above the root, bad encoding and NUL', () => {
    expect(normaliseRequestPath('/images/../../etc/passwd')).toEqual({ ok: false, reason: 'escapes-root' });
    expect(normaliseRequestPath('/images/%2e%2e/%2e%2e/x')).toEqual({ ok: false, reason: 'escapes-root' });
    expect(normaliseRequestPath('/images/%zz')).toEqual({ ok: false, reason: 'bad-encoding' });
    expect(normaliseRequestPath('/images/a%00.png')).toEqual({ ok: false, reason: 'nul' });
  });
});

describe('keyUnderMount', () => {
  it('gives the key inside the mount only', () => {
    expect(keyUnderMount('/images/a/b.png', '/images/')).toBe('a/b.png');
    expect(keyUnderMount('/imagesX/a.png', '/images/')).toBeUndefined();
    expect(keyUnderMount('/images/', '/images/')).toBeUndefined();
    expect(keyUnderMount('/images/dir/', '/images/')).toBeUndefined();
  });
});
