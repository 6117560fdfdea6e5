import { XMLBuilder } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { SUBSONIC_NAMESPACE, envelope, render, type Payload } from './response.js';

/** The renderer this file's writers replaced (fast-xml-parser's builder over a converted copy): the reference. */
const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  suppressEmptyNode: true,
  suppressBooleanAttributes: false,
});

function scalarText(v: unknown): string {
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return v.toString();
  return JSON.stringify(v) ?? '';
}

function xmlNode(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined || v === null) continue;
    if (Array.isArray(v))
      out[key] = v.map((item: unknown) =>
        typeof item === 'object' && item !== null ? xmlNode(item as Record<string, unknown>) : String(item),
      );
    else if (typeof v === 'object' && !(v instanceof Date)) out[key] = xmlNode(v as Record<string, unknown>);
    else if (key === 'value') out['#text'] = scalarText(v);
    else out[`@_${key}`] = scalarText(v);
  }
  return out;
}

function jsonValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(jsonValue);
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== undefined && v !== null) out[k] = jsonValue(v);
    return out;
  }
  return value;
}

const referenceXml = (document: Payload): string =>
  builder.build({
    '?xml': { '@_version': '1.0', '@_encoding': 'UTF-8' },
    'subsonic-response': { '@_xmlns': SUBSONIC_NAMESPACE, ...xmlNode(document) },
  });
const referenceJson = (document: Payload): string =>
  JSON.stringify({ 'subsonic-response': jsonValue(document) });

const created = new Date('2026-11-26T01:02:03.456Z');
const song = {
  id: '6f1c1b4e-2d7a-4c1e-9a53-0d6e1f2a3b4c',
  isDir: false,
  title: 'Rock & <Roll> "live" \'99',
  track: 2,
  year: undefined,
  genre: null,
  size: 4_000_000,
  created,
  starred: undefined,
  musicBrainzId: '',
  genres: [{ name: 'Test Tones' }],
  artists: [],
  replayGain: { trackGain: -4.5, trackPeak: 0.944061 },
};
const PAYLOADS: Record<string, Payload> = {
  ping: {},
  album: { album: { id: 'al-1', name: 'Pure Tones', song: [song, { ...song, id: 'b', track: 3 }] } },
  genres: {
    genres: {
      genre: [
        { value: 'Rock & <Roll>', songCount: 1 },
        { value: '', albumCount: 0 },
      ],
    },
  },
  lyrics: { lyricsList: { structuredLyrics: [{ lang: 'en', line: [{ start: 0, value: 'a "b"' }] }] } },
  mixed: {
    folder: [1, 2],
    empty: {},
    list: [],
    odd: [null, undefined, true, created, { x: null }],
    text: { c: { y: -0 }, a: 1e21, value: 't' },
  },
  error: { error: { code: 70, message: 'Song not found' } },
};

describe('Subsonic answers', () => {
  for (const [name, payload] of Object.entries(PAYLOADS)) {
    it(`${name}: XML and JSON are byte for byte what the previous renderer wrote`, () => {
      const document = envelope('ok', '1.2.3', payload);
      const xml = render({ kind: 'xml' }, document);
      expect(xml.contentType).toBe('application/xml; charset=utf-8');
      expect(xml.body).toBe(referenceXml(document));
      expect(render({ kind: 'json' }, document).body).toBe(referenceJson(document));
      expect(render({ kind: 'jsonp', callback: 'app.cb' }, document).body).toBe(
        `app.cb(${referenceJson(document)});`,
      );
    });
  }

  it('escapes the five XML specials in attributes and text', () => {
    const body = render({ kind: 'xml' }, { a: { n: `&<>"'`, value: `&<>"'` } }).body;
    expect(body).toContain('<a n="&amp;&lt;&gt;&quot;&apos;">&amp;&lt;&gt;&quot;&apos;</a>');
  });

  it('writes U+FFFD for what XML 1.0 cannot hold; emoji, tabs and line breaks stay', () => {
    const body = render(
      { kind: 'xml' },
      { a: { n: 'x\uffff\ufffe\u0001\ud800&', value: '🎵\t\n\u{10ffff}' } },
    ).body;
    expect(body).toContain('<a n="x\ufffd\ufffd\ufffd\ufffd&amp;">🎵\t\n\u{10ffff}</a>');
  });
});
