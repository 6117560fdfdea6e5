/**
 * search3's songs come from subsonic_song_search (migration 20261126010000), kept by the library
 * triggers: pages follow the lower-cased title order with every visible match and no other,
 * whether the word is common (read in title order) or rare (read through the GIN indexes), and
 * the table follows re-tagging (a title tag finds the song; the title shown is the track's), a new title, visibility, a new current version and deletion.
 * Songs are seeded as the pipeline leaves them (ready versions with tags) through Prisma.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addReadyVersion, clientKeys } from './helpers/library-rows.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { signupUser, type TestUser } from './helpers/music-domain.js';
import { uniqueSuffix } from './helpers/music-env.js';

interface Seeded {
  id: string;
  versionId: string;
  owner: TestUser;
  title: string;
  visibility: 'public' | 'private';
}

describe('Subsonic search over subsonic_song_search', () => {
  let t: MusicTestApp;
  let owner: TestUser;
  let other: TestUser;
  let keys: Map<string, string>;
  // One word only this test's songs hold, so other tests' rows in the shared database do not show.
  const word = `zq${uniqueSuffix()}`;
  const songs: Seeded[] = [];

  // Making it current is what the finalize step does; the triggers fill the search row.
  const addVersion = (trackId: string, who: TestUser, tags: { title: string | null; artist: string }) =>
    addReadyVersion(t.connections, trackId, who.id, { ...tags, album: `Album ${word}` });

  async function seed(who: TestUser, title: string, visibility: Seeded['visibility'], tagged = true) {
    const track = await t.connections.prisma.track.create({
      data: { title, ownerUserId: who.id, visibility },
    });
    const versionId = await addVersion(track.id, who, {
      title: tagged ? title : null,
      artist: `Artist ${word}`,
    });
    const song = { id: track.id, versionId, owner: who, title, visibility };
    songs.push(song);
    return song;
  }

  async function search(who: TestUser, query: string, params: Record<string, string> = {}) {
    const url = new URL('http://localhost/rest/search3.view');
    for (const [k, v] of Object.entries({
      apiKey: keys.get(who.id)!,
      f: 'json',
      query,
      albumCount: '0',
      artistCount: '0',
      ...params,
    }))
      url.searchParams.set(k, v);
    const res = await t.app.inject({ method: 'GET', url: url.pathname + url.search });
    const body = res.json()['subsonic-response'];
    expect(body.status, res.body).toBe('ok');
    return ((body.searchResult3.song ?? []) as { id: string; title: string }[]).map((s) => s.title);
  }

  /** What the caller may see of the seeded songs, by lower-cased title then id. */
  const expected = (who: TestUser, match: (s: Seeded) => boolean, mine = false) =>
    songs
      .filter((s) => match(s) && (s.owner === who || (!mine && s.visibility === 'public')))
      .sort((a, b) => {
        const x = a.title.toLowerCase();
        const y = b.title.toLowerCase();
        return x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : 1;
      })
      .map((s) => s.title);

  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
    owner = await signupUser(t.app, 'srch');
    other = await signupUser(t.app, 'srco');
    keys = await clientKeys(t.app, [owner, other]);
    // Titles in an order unlike their creation order; mixed case (the order is case-blind).
    for (const n of [17, 3, 25, 9, 0, 21, 12, 5, 28, 14, 1, 19, 7, 23, 10, 26, 2, 16, 8, 29])
      await seed(owner, `${n % 3 === 0 ? 'Song' : 'song'} ${word} ${String(n).padStart(2, '0')}`, 'public');
    await seed(owner, `Own private ${word}`, 'private');
    await seed(other, `Other secret ${word}`, 'private');
    await seed(owner, `Untagged ${word} fallback`, 'public', false);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  it('pages every visible match in title order, and no other', async () => {
    for (const who of [owner, other]) {
      const all = expected(who, () => true);
      const pages: string[] = [];
      for (let offset = 0; offset < all.length + 7; offset += 7)
        pages.push(...(await search(who, word, { songCount: '7', songOffset: String(offset) })));
      expect(pages).toEqual(all);
    }
    expect(await search(other, word, { songCount: '100' })).toContain(`Other secret ${word}`);
    expect(await search(other, word, { songCount: '100' })).not.toContain(`Own private ${word}`);
    // Folder 2 ("Mine") is the caller's own songs only.
    expect(await search(other, word, { songCount: '100', musicFolderId: '2' })).toEqual([
      `Other secret ${word}`,
    ]);
  });

  it('matches word prefixes, all words of the query, and untagged songs by the track title', async () => {
    expect(await search(owner, `${word} 07`)).toEqual([`song ${word} 07`]);
    expect(await search(owner, `${word.slice(0, -2)} fallb`)).toEqual([`Untagged ${word} fallback`]);
    expect(await search(owner, `${word} nomatch`)).toEqual([]);
  });

  it('follows re-tagging, a new title, visibility, a new current version and deletion', async () => {
    const [retag, hide, replace, remove] = songs.slice(0, 4) as [Seeded, Seeded, Seeded, Seeded];
    const untagged = songs.find((s) => s.title.startsWith('Untagged'))!;
    const fresh = `zr${uniqueSuffix()}`;

    await t.connections.prisma.trackVersion.update({
      where: { id: retag.versionId },
      data: { tagTitle: `Retagged ${fresh}` },
    });
    // One title everywhere: a title tag finds the song, which keeps its track's title.
    expect(await search(other, fresh)).toEqual([retag.title]);
    expect(await search(other, word, { songCount: '100' })).toContain(retag.title);

    await t.connections.prisma.track.update({
      where: { id: untagged.id },
      data: { title: `Renamed ${fresh}` },
    });
    expect(await search(other, `renamed ${fresh}`)).toEqual([`Renamed ${fresh}`]);

    await t.connections.prisma.track.update({ where: { id: hide.id }, data: { visibility: 'private' } });
    expect(await search(other, word, { songCount: '100' })).not.toContain(hide.title);
    expect(await search(owner, word, { songCount: '100' })).toContain(hide.title);

    await addVersion(replace.id, owner, { title: `Second version ${fresh}`, artist: 'Someone' });
    expect(await search(other, `second ${fresh}`)).toEqual([replace.title]);
    expect(await search(other, word, { songCount: '100' })).toContain(replace.title);

    await t.connections.prisma.track.delete({ where: { id: remove.id } });
    expect(await search(owner, word, { songCount: '100' })).not.toContain(remove.title);

    // The table holds exactly the songs of the view for these tracks.
    const ids = songs.map((s) => s.id);
    const [counts] = await t.connections.prisma.$queryRaw<{ table: number; view: number }[]>`
      SELECT (SELECT count(*)::int FROM subsonic_song_search WHERE track_id = ANY(${ids}::uuid[])) AS table,
             (SELECT count(*)::int FROM subsonic_songs WHERE id = ANY(${ids}::uuid[])) AS view`;
    expect(counts).toEqual({ table: songs.length - 1, view: songs.length - 1 });
  });
});
