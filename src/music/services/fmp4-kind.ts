/**
 * What an HLS rendition carries, read from its fMP4 initialisation segment: the handler type
 * of each track (ISO/IEC 14496-12 `moov/trak/mdia/hdlr`). A rendition with a video track is
 * served as video/mp4, an audio-only one as audio/mp4 (RFC 4337), so its segments (.m4s) get
 * the type of what they hold, not a generic one.
 */

export type MediaKind = 'audio' | 'video';

interface Box {
  type: string;
  start: number;
  end: number;
}

/** The boxes directly inside `buf[from, to)`; stops at the first malformed header. */
function boxes(buf: Buffer, from: number, to: number): Box[] {
  const out: Box[] = [];
  let at = from;
  while (at + 8 <= to) {
    let size = buf.readUInt32BE(at);
    const type = buf.toString('latin1', at + 4, at + 8);
    let header = 8;
    if (size === 1) {
      if (at + 16 > to) break;
      size = Number(buf.readBigUInt64BE(at + 8));
      header = 16;
    } else if (size === 0) {
      size = to - at;
    }
    if (size < header || at + size > to) break;
    out.push({ type, start: at + header, end: at + size });
    at += size;
  }
  return out;
}

const child = (buf: Buffer, box: Box, type: string): Box[] =>
  boxes(buf, box.start, box.end).filter((b) => b.type === type);

/** Handler types (`soun`, `vide`, ...) of every track in an fMP4 init segment. */
export function trackHandlers(init: Buffer): string[] {
  const handlers: string[] = [];
  for (const moov of boxes(init, 0, init.length).filter((b) => b.type === 'moov'))
    for (const trak of child(init, moov, 'trak'))
      for (const mdia of child(init, trak, 'mdia'))
        for (const hdlr of child(init, mdia, 'hdlr')) {
          // version+flags (4), pre_defined (4), then handler_type.
          if (hdlr.start + 12 <= hdlr.end)
            handlers.push(init.toString('latin1', hdlr.start + 8, hdlr.start + 12));
        }
  return handlers;
}

export function mediaKindOfInit(init: Buffer): MediaKind {
  return trackHandlers(init).includes('vide') ? 'video' : 'audio';
}

export const contentTypeOfKind = (kind: MediaKind): string => (kind === 'video' ? 'video/mp4' : 'audio/mp4');
