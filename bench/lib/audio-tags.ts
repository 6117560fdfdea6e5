/**
 * Tags written in JS onto audio that ffmpeg encoded once, so thousands of library files share a
 * few encodes yet each is a valid file of its format with its own bytes: an ID3v2.3 tag (UTF-16
 * text frames, an optional APIC cover) before MP3 frames, and a FLAC's metadata blocks rebuilt
 * with its own VORBIS_COMMENT before the master's audio frames.
 */

export interface FileTags {
  title: string;
  artist: string;
  albumArtist: string;
  album: string;
  track: number;
  tracks: number;
  disc: number;
  year: number;
  genre: string;
}

/** ID3v2 sizes: 7 bits a byte. */
function syncsafe(n: number): Buffer {
  return Buffer.from([(n >> 21) & 0x7f, (n >> 14) & 0x7f, (n >> 7) & 0x7f, n & 0x7f]);
}

function frame(id: string, body: Buffer): Buffer {
  const head = Buffer.alloc(10);
  head.write(id, 0, 'latin1');
  head.writeUInt32BE(body.length, 4);
  return Buffer.concat([head, body]);
}

/** A text frame in UTF-16 with a BOM (ID3v2.3 encoding 1), so any name survives. */
function textFrame(id: string, text: string): Buffer {
  return frame(id, Buffer.concat([Buffer.from([1, 0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
}

/** ID3v2.3 tag with the usual frames, `cover` as an APIC front cover, and `padding` zero bytes as taggers leave. */
export function id3v2(tags: FileTags, cover: Buffer | undefined, padding = 1024): Buffer {
  const frames = [
    textFrame('TIT2', tags.title),
    textFrame('TPE1', tags.artist),
    textFrame('TPE2', tags.albumArtist),
    textFrame('TALB', tags.album),
    textFrame('TRCK', `${tags.track}/${tags.tracks}`),
    textFrame('TPOS', `${tags.disc}/1`),
    textFrame('TYER', String(tags.year)),
    textFrame('TCON', tags.genre),
  ];
  if (cover)
    frames.push(
      frame(
        'APIC',
        Buffer.concat([Buffer.from([0]), Buffer.from('image/jpeg\0', 'latin1'), Buffer.from([3, 0]), cover]),
      ),
    );
  const body = Buffer.concat([...frames, Buffer.alloc(padding)]);
  return Buffer.concat([Buffer.from([0x49, 0x44, 0x33, 3, 0, 0]), syncsafe(body.length), body]);
}

/** Where a FLAC's audio frames start, and its STREAMINFO (and any SEEKTABLE) blocks to keep. */
export function flacParts(master: Buffer): { keep: Buffer[]; framesAt: number } {
  if (master.toString('latin1', 0, 4) !== 'fLaC') throw new Error('not a FLAC file');
  const keep: Buffer[] = [];
  let at = 4;
  for (;;) {
    const header = master[at] as number;
    const length = master.readUIntBE(at + 1, 3);
    const type = header & 0x7f;
    // STREAMINFO (0) and SEEKTABLE (3) describe the audio; comments (4) and padding (1) are replaced.
    if (type === 0 || type === 3) keep.push(master.subarray(at, at + 4 + length));
    at += 4 + length;
    if (header & 0x80) return { keep, framesAt: at };
  }
}

function le32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
}

/** The metadata blocks of a FLAC whose audio is the master's: its kept blocks, then a VORBIS_COMMENT (last). */
export function flacHead(keep: Buffer[], tags: FileTags): Buffer {
  const comments = [
    `TITLE=${tags.title}`,
    `ARTIST=${tags.artist}`,
    `ALBUMARTIST=${tags.albumArtist}`,
    `ALBUM=${tags.album}`,
    `TRACKNUMBER=${tags.track}`,
    `TRACKTOTAL=${tags.tracks}`,
    `DISCNUMBER=${tags.disc}`,
    `DATE=${tags.year}`,
    `GENRE=${tags.genre}`,
  ].map((c) => Buffer.from(c, 'utf8'));
  const vendor = Buffer.from('bench library', 'utf8');
  const body = Buffer.concat([
    le32(vendor.length),
    vendor,
    le32(comments.length),
    ...comments.flatMap((c) => [le32(c.length), c]),
  ]);
  const blocks = keep.map((b) => {
    const copy = Buffer.from(b);
    copy[0] = (copy[0] as number) & 0x7f;
    return copy;
  });
  const head = Buffer.alloc(4);
  head[0] = 0x80 | 4;
  head.writeUIntBE(body.length, 1, 3);
  return Buffer.concat([Buffer.from('fLaC', 'latin1'), ...blocks, head, body]);
}
