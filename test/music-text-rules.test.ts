/**
 * The one text rule on every request field (core/text-safety.ts) and the one way text is
 * counted and cut (core/text-length.ts): noncharacters such as U+FFFF are refused with a 400,
 * a row stored before that rule never breaks a Subsonic XML answer, bounds and messages count
 * characters as the schemas do, and no cut leaves half of a surrogate pair.
 */
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { signupUser, type TestUser } from './helpers/music-domain.js';
import { addReadyVersion, clientKeys } from './helpers/library-rows.js';

/** Half of a surrogate pair, as a JSON escape (what jq and strict readers refuse) or as a unit. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const LONE_ESCAPE = /\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f])/i;

describe('text rule and text length', () => {
  let t: MusicTestApp;
  let alice: TestUser;
  let carol: TestUser;
  let keys: Map<string, string>;
  let track = '';

  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
    alice = await signupUser(t.app, 'txa');
    carol = await signupUser(t.app, 'txc');
    keys = await clientKeys(t.app, [alice, carol]);
    const res = await api('POST', '/api/v1/tracks', alice, { title: 'Alice Song', visibility: 'public' });
    track = res.json<{ id: string }>().id;
    await addReadyVersion(t.connections, track, alice.id, { title: 'Alice Song', artist: 'A', album: 'B' });
  });
  afterAll(async () => t.close());

  const api = (method: 'GET' | 'POST' | 'PATCH', url: string, who: TestUser, payload?: unknown) =>
    t.app.inject({
      method,
      url,
      headers: who.headers,
      ...(payload !== undefined ? { payload: payload as object } : {}),
    });

  /** A Subsonic call's raw answer (XML unless `f` is given). */
  async function rest(who: TestUser, endpoint: string, params: Record<string, string> = {}) {
    const url = new URL(`http://localhost/rest/${endpoint}.view`);
    url.searchParams.set('apiKey', keys.get(who.id)!);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    return t.app.inject({ method: 'GET', url: url.pathname + url.search });
  }

  it('refuses noncharacters (U+FFFF, U+FFFE, U+FDD0, U+10FFFF) in every text field, naming the character', async () => {
    for (const [ch, name] of [
      ['\uffff', 'U+FFFF'],
      ['\ufffe', 'U+FFFE'],
      ['\ufdd0', 'U+FDD0'],
      ['\u{10ffff}', 'U+10FFFF'],
    ] as const) {
      const patch = await api('PATCH', `/api/v1/tracks/${track}`, alice, { title: `Alice${ch}` });
      expect(patch.statusCode, patch.body).toBe(400);
      expect(patch.json<{ detail: string }>().detail).toContain(name);
      const create = await api('POST', '/api/v1/playlists', alice, { name: `x${ch}` });
      expect(create.statusCode, create.body).toBe(400);
    }
    const sub = await rest(alice, 'createPlaylist', { name: 'x\uffff', f: 'json' });
    const doc = sub.json<{ 'subsonic-response': { status: string; error?: { message: string } } }>();
    expect(doc['subsonic-response'].status).toBe('failed');
    expect(doc['subsonic-response'].error?.message).toContain('U+FFFF');
    const stored = await t.connections.prisma.track.findUniqueOrThrow({ where: { id: track } });
    expect(stored.title).toBe('Alice Song');
  });

  it('refuses names of nothing visible, tag characters and line separators in one-line fields, naming the character', async () => {
    const cases: [string, string, unknown][] = [
      ['U+3164', '/api/v1/playlists', { name: '\u3164' }],
      ['U+2800', '/api/v1/playlists', { name: '\u2800\u2800' }],
      ['U+00AD', '/api/v1/tracks', { title: '\u00ad' }],
      ['U+FE0F', '/api/v1/tracks', { title: ' \ufe0f ' }],
      ['U+E0041', '/api/v1/tracks', { title: 'Song\u{e0041}\u{e0042}' }],
      ['U+180E', '/api/v1/playlists', { name: 'a\u180eb' }],
      ['U+2028', '/api/v1/playlists', { name: 'one\u2028two' }],
    ];
    for (const [found, url, payload] of cases) {
      const res = await api('POST', url, alice, payload);
      expect(res.statusCode, `${found} ${res.body}`).toBe(400);
      expect(res.json<{ detail: string }>().detail).toContain(found);
    }
    const display = await api('PATCH', '/api/v1/users/me', alice, { display_name: '\u3164' });
    expect(display.statusCode, display.body).toBe(400);
    // Beside visible text, fillers and a subdivision flag’s tag characters stay.
    const kept = await api('POST', '/api/v1/playlists', alice, {
      name: '한\u3164글 \u{1f3f4}\u{e0067}\u{e0062}\u{e0077}\u{e006c}\u{e0073}\u{e007f}',
    });
    expect(kept.statusCode, kept.body).toBe(201);
  });

  it('writes well-formed XML even for a row stored before the rule (the character becomes U+FFFD)', async () => {
    const made = await api('POST', '/api/v1/playlists', alice, {
      name: 'stored',
      public: true,
      track_ids: [track],
    });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json<{ id: string }>().id;
    await t.connections.prisma.playlist.update({
      where: { id },
      data: { name: 'old\uffff\ufffename\u0001' },
    });
    // getPlaylists as its owner: others' public lists are bounded, and other files share this library.
    for (const [who, endpoint, params] of [
      [carol, 'getPlaylist', { id }],
      [alice, 'getPlaylists', {}],
    ] as const) {
      const res = await rest(who, endpoint, params);
      expect(res.statusCode).toBe(200);
      expect(XMLValidator.validate(res.body), res.body.slice(0, 300)).toBe(true);
      expect(res.body).toContain('name="old\ufffd\ufffdname\ufffd"');
    }
  });

  it('keeps emoji whole where text is bounded: playlist names, queue, bookmark and now-playing clients', async () => {
    const name = 'a' + '🎵'.repeat(100); // 101 characters, 201 UTF-16 units; the bound is 200
    const web = await api('POST', '/api/v1/playlists', alice, { name });
    expect(web.statusCode, web.body).toBe(201);
    expect(web.json<{ name: string }>().name).toBe(name);

    const json = { f: 'json' };
    const sub = await rest(alice, 'createPlaylist', { ...json, name });
    expect(sub.statusCode, sub.body).toBe(200);
    const subId = sub.json<{ 'subsonic-response': { playlist: { id: string; name: string } } }>()[
      'subsonic-response'
    ].playlist;
    expect(subId.name).toBe(name);
    const comment = 'a' + '🎵'.repeat(1500); // 1501 characters, 3001 units; the bound is 2000
    const update = await rest(alice, 'updatePlaylist', { ...json, playlistId: subId.id, comment });
    expect(update.json<{ 'subsonic-response': { status: string } }>()['subsonic-response'].status).toBe('ok');
    const row = await t.connections.prisma.playlist.findUniqueOrThrow({ where: { id: subId.id } });
    expect(row.comment).toBe(comment);

    const queue = await rest(alice, 'savePlayQueue', { ...json, id: track, c: name });
    expect(queue.json<{ 'subsonic-response': { status: string } }>()['subsonic-response'].status).toBe('ok');
    const read = await rest(alice, 'getPlayQueue', json);
    expect(read.body).not.toMatch(LONE_ESCAPE);
    expect(
      read.json<{ 'subsonic-response': { playQueue: { changedBy: string } } }>()['subsonic-response']
        .playQueue.changedBy,
    ).toBe(name);

    const mark = await rest(alice, 'createBookmark', { ...json, id: track, position: '1000', comment });
    expect(mark.json<{ 'subsonic-response': { status: string } }>()['subsonic-response'].status).toBe('ok');
    const bookmark = await t.connections.prisma.bookmark.findFirstOrThrow({ where: { userId: alice.id } });
    expect(bookmark.comment).toBe(comment);

    // 51 characters, 101 units; the client name is bounded to 100 characters.
    const client = 'a' + '🎵'.repeat(50);
    const scrobble = await rest(alice, 'scrobble', { ...json, id: track, submission: 'false', c: client });
    expect(scrobble.json<{ 'subsonic-response': { status: string } }>()['subsonic-response'].status).toBe(
      'ok',
    );
    const playing = await rest(carol, 'getNowPlaying', json);
    expect(playing.body).not.toMatch(LONE_ESCAPE);
    const entries = playing.json<{
      'subsonic-response': { nowPlaying: { entry?: { username: string; playerName?: string }[] } };
    }>()['subsonic-response'].nowPlaying.entry;
    const mine = entries?.find((e) => e.username === alice.handle);
    expect(JSON.stringify(mine)).toContain(client);
    expect(LONE_SURROGATE.test(JSON.stringify(mine))).toBe(false);
  });

  it('counts characters, not UTF-16 units, in length messages, as the bounds do', async () => {
    const tooLong = await api('PATCH', '/api/v1/users/me', alice, { display_name: '🎵'.repeat(101) });
    expect(tooLong.statusCode, tooLong.body).toBe(400);
    expect(tooLong.json<{ detail: string }>().detail).toContain('is 101 characters long; at most 100');
    const fits = await api('PATCH', '/api/v1/users/me', alice, { display_name: '🎵'.repeat(100) });
    expect(fits.statusCode, fits.body).toBe(200);
  });
});
