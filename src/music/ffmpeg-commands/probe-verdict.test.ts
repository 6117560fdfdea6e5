import { describe, expect, it } from 'vitest';
import { judgeProbe, readTags } from './probe.js';
import { refusedCharacter } from '../../core/text-safety.js';

const stream = (codec: string, extra: Record<string, unknown> = {}) => ({
  codec_type: 'audio',
  codec_name: codec,
  channels: 2,
  sample_rate: '44100',
  ...extra,
});

describe('judgeProbe', () => {
  it('accepts an MP3 with ID3 tags and reads its facts', () => {
    const verdict = judgeProbe({
      format: {
        format_name: 'mp3',
        duration: '12.345',
        bit_rate: '320000',
        tags: { title: 'Song', artist: 'A', album_artist: 'B', track: '7/10', disc: '1/2', date: '1999' },
      },
      streams: [
        stream('mp3'),
        { codec_type: 'video', codec_name: 'mjpeg', disposition: { attached_pic: 1 } },
      ],
    });
    expect(verdict).toEqual({
      ok: true,
      probe: expect.objectContaining({ format: 'mp3', codec: 'mp3', duration_ms: 12345, bit_rate: 320000 }),
    });
    if (verdict.ok)
      expect(verdict.probe.tags).toMatchObject({
        title: 'Song',
        album_artist: 'B',
        track_number: 7,
        disc_number: 1,
        year: 1999,
      });
  });

  it('accepts m4a (mov family) and takes the first of several MusicBrainz ids', () => {
    const verdict = judgeProbe({
      format: {
        format_name: 'mov,mp4,m4a,3gp,3g2,mj2',
        tags: {
          'MusicBrainz Artist Id':
            'AAAAAAAA-0000-4000-8000-000000000001/bbbbbbbb-0000-4000-8000-000000000002',
        },
      },
      streams: [stream('aac')],
    });
    expect(verdict.ok && verdict.probe.tags.musicbrainz_artist_id).toBe(
      'aaaaaaaa-0000-4000-8000-000000000001',
    );
  });

  it('refuses text, video and picture-only files, naming what was found', () => {
    expect(
      judgeProbe({ format: { format_name: 'tty', format_long_name: 'Tele-typewriter' }, streams: [] }),
    ).toEqual({
      ok: false,
      found: 'Tele-typewriter, no audio stream',
    });
    expect(
      judgeProbe({
        format: { format_name: 'mp3' },
        streams: [{ codec_type: 'video', codec_name: 'png', disposition: { attached_pic: 1 } }],
      }).ok,
    ).toBe(false);
    expect(judgeProbe({ format: { format_name: 'matroska,webm' }, streams: [stream('opus')] }).ok).toBe(
      false,
    );
    expect(judgeProbe(undefined).ok).toBe(false);
  });
});

describe('readTags', () => {
  it('drops control characters, bad ids and non-numeric ordinals', () => {
    const tags = readTags({
      TITLE: 'a\u0000b\nc',
      MUSICBRAINZ_TRACKID: 'not-a-uuid',
      TRACKNUMBER: 'x',
      DATE: '2020-01-02',
    });
    expect(tags).toMatchObject({
      title: 'a b c',
      musicbrainz_recording_id: null,
      track_number: null,
      year: 2020,
    });
  });

  it('cleans tags by the rule typed text follows: C1 controls, bidi and invisible characters', () => {
    const tags = readTags({
      TITLE: 'evil\u202Egnp.exe',
      ARTIST: 'one\u0085two\u009bthree',
      ALBUM: '\ufeff\u200bZero\u2066Width\u2069\u061c',
      GENRE: 'lone \ud800 surrogate',
    });
    expect(tags).toMatchObject({
      title: 'evilgnp.exe',
      artist: 'one two three',
      album: 'ZeroWidth',
      genre: 'lone  surrogate',
    });
    for (const value of [tags.title, tags.artist, tags.album, tags.genre])
      expect(refusedCharacter(value ?? '')).toBeUndefined();
    // Cut at the limit by whole characters, never half a surrogate pair.
    const long = readTags({ TITLE: 'a' + '\u{1F3B5}'.repeat(600) }).title ?? '';
    expect(Array.from(long)).toHaveLength(500);
    expect(refusedCharacter(long)).toBeUndefined();
  });
});
