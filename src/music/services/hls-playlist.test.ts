import { describe, expect, it } from 'vitest';
import { rewritePlaylist } from './hls-playlist.js';
import { secureLinkSignature } from './secure-link.js';

const options = {
  playlistPath: '/media/hls/v1/r0/index.m3u8',
  mount: '/media/hls/',
  secret: 's3cret-value',
  expires: 1234,
};
const sig = (path: string) => secureLinkSignature(1234, path, 's3cret-value');

describe('rewritePlaylist', () => {
  it('signs URI lines and URI attributes for the path they resolve to', () => {
    const input = [
      '#EXTM3U',
      '#EXT-X-MAP:URI="init_0.mp4"',
      '#EXTINF:4.0,',
      'seg0.m4s',
      '#EXTINF:4.0,',
      '../r1/seg1.m4s',
      '#EXT-X-ENDLIST',
      '',
    ].join('\n');
    const out = rewritePlaylist(input, options).split('\n');
    expect(out[1]).toBe(`#EXT-X-MAP:URI="init_0.mp4?sig=${sig('/media/hls/v1/r0/init_0.mp4')}&expires=1234"`);
    expect(out[3]).toBe(`seg0.m4s?sig=${sig('/media/hls/v1/r0/seg0.m4s')}&expires=1234`);
    expect(out[5]).toBe(`../r1/seg1.m4s?sig=${sig('/media/hls/v1/r1/seg1.m4s')}&expires=1234`);
    expect(out[6]).toBe('#EXT-X-ENDLIST');
    expect(out).toHaveLength(8);
  });

  it('replaces an old signature, keeps other query parameters and CRLF line ends', () => {
    const out = rewritePlaylist('#EXTM3U\r\na.ts?x=1&sig=old&expires=1\r\n', options);
    expect(out).toBe(`#EXTM3U\r\na.ts?x=1&sig=${sig('/media/hls/v1/r0/a.ts')}&expires=1234\r\n`);
  });

  it('leaves other origins and paths outside the mount alone', () => {
    const input = 'https://cdn.example.org/x.ts\n/images/cover.jpg\n../../../../etc/passwd\n';
    expect(rewritePlaylist(input, options)).toBe(input);
  });
});
