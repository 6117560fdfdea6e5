/**
 * getArtists reads subsonic_artists (migration 20261126020000), kept from the album parts by the
 * library triggers: each caller's artists and album counts, in both music folders, equal a
 * grouping of the album parts they see (albums shared by a public and a private part counted
 * once), and follow re-tagging, visibility, a new current version and deletion.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addReadyVersion, clientKeys } from './helpers/library-rows.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { signupUser, type TestUser } from './helpers/music-domain.js';
import { uniqueSuffix } from './helpers/music-env.js';

interface Artist {
  name: string;
  albumCount: number;
}

describe('Subsonic getArtists over subsonic_artists', () => {
  let t: MusicTestApp;
  let owner: TestUser;
  let other: TestUser;
  let keys: Map<string, string>;
  // Artist names only this test holds, so other tests' rows in the shared database do not count.
  const word = `zs${uniqueSuffix()}`;

  const addVersion = (trackId: string, who: TestUser, artist: string, album: string) =>
    addReadyVersion(t.connections, trackId, who.id, { artist, album });

  async function seed(who: TestUser, artist: string, album: string, visibility: 'public' | 'private') {
    const track = await t.connections.prisma.track.create({
      data: { title: `Upload ${uniqueSuffix()}`, ownerUserId: who.id, visibility },
    });
    return { id: track.id, versionId: await addVersion(track.id, who, artist, album) };
  }

  async function artists(who: TestUser, folder?: number): Promise<Artist[]> {
    const folderParam = folder === undefined ? '' : `&musicFolderId=${folder}`;
    const res = await t.app.inject({
      method: 'GET',
      url: `/rest/getArtists.view?apiKey=${keys.get(who.id)!}&f=json${folderParam}`,
    });
    const body = res.json()['subsonic-response'];
    expect(body.status, res.body).toBe('ok');
    const index = (body.artists.index ?? []) as { artist: { name: string; albumCount: number }[] }[];
    return index
      .flatMap((g) => g.artist)
      .filter((a) => a.name.includes(word))
      .map((a) => ({ name: a.name, albumCount: a.albumCount }));
  }

  /** The same list by grouping every album part the caller sees (the former query). */
  async function grouped(who: TestUser, mine: boolean): Promise<Artist[]> {
    const rows = await t.connections.prisma.$queryRaw<Artist[]>`
      SELECT min(p.artist) AS name, count(DISTINCT p.album_id)::int AS "albumCount"
      FROM subsonic_album_parts p
      WHERE (p.owner_user_id = ${who.id}::uuid OR (NOT ${mine} AND p.public)) AND p.artist LIKE ${`%${word}%`}
      GROUP BY p.artist_id ORDER BY lower(min(p.artist)), p.artist_id`;
    return rows;
  }

  async function expectConsistent() {
    for (const who of [owner, other]) {
      expect(await artists(who)).toEqual(await grouped(who, false));
      expect(await artists(who, 1)).toEqual(await grouped(who, false));
      expect(await artists(who, 2)).toEqual(await grouped(who, true));
    }
  }

  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
    owner = await signupUser(t.app, 'arto');
    other = await signupUser(t.app, 'arta');
    keys = await clientKeys(t.app, [owner, other]);
  });

  afterAll(async () => {
    await t.close();
  });

  it('counts each visible album once and follows re-tagging, visibility, new versions and deletion', async () => {
    const a = `Alpha ${word}`;
    const b = `beta ${word}`;
    const pub = await seed(owner, a, 'One', 'public');
    const priv = await seed(owner, a, 'One', 'private'); // the same album as a private part
    const second = await seed(owner, a, 'Two', 'private');
    const theirs = await seed(other, a, 'One', 'public'); // the same album from another owner
    await seed(other, b, 'Three', 'private');
    expect(await artists(other)).toEqual([
      { name: a, albumCount: 1 },
      { name: b, albumCount: 1 },
    ]);
    expect(await artists(owner)).toEqual([{ name: a, albumCount: 2 }]);
    expect(await artists(owner, 2)).toEqual([{ name: a, albumCount: 2 }]);
    expect(await artists(other, 2)).toEqual([
      { name: a, albumCount: 1 },
      { name: b, albumCount: 1 },
    ]);
    await expectConsistent();

    // search3 lists the same artists, and the albums by their artist's name, from one statement.
    const res = await t.app.inject({
      method: 'GET',
      url: `/rest/search3.view?apiKey=${keys.get(owner.id)!}&f=json&query=${word}&songCount=0`,
    });
    const found = res.json()['subsonic-response'].searchResult3;
    expect(found.artist.map((x: Artist) => ({ name: x.name, albumCount: x.albumCount }))).toEqual([
      { name: a, albumCount: 2 },
    ]);
    expect(found.album.map((x: { name: string; songCount: number }) => [x.name, x.songCount])).toEqual([
      ['One', 3], // the owner's public and private songs and the other owner's public one
      ['Two', 1],
    ]);

    // Re-tagging moves a song, its album and maybe its artist.
    await t.connections.prisma.trackVersion.update({
      where: { id: second.versionId },
      data: { tagArtist: b },
    });
    expect(await artists(owner)).toEqual([
      { name: a, albumCount: 1 },
      { name: b, albumCount: 1 },
    ]);
    await expectConsistent();

    // Visibility: the owner's public part goes private; the other owner's public part still shows.
    await t.connections.prisma.track.update({ where: { id: pub.id }, data: { visibility: 'private' } });
    await t.connections.prisma.track.update({ where: { id: theirs.id }, data: { visibility: 'private' } });
    expect(await artists(other)).toEqual([
      { name: a, albumCount: 1 },
      { name: b, albumCount: 1 },
    ]);
    expect((await artists(owner)).find((x) => x.name === a)).toEqual({ name: a, albumCount: 1 });
    await expectConsistent();

    // A new current version with other tags.
    await addVersion(priv.id, owner, `Gamma ${word}`, 'Four');
    await expectConsistent();
    expect((await artists(owner)).map((x) => x.name)).toContain(`Gamma ${word}`);

    // Deletion: the owner's songs of artist A go; only the other owner's (now private) part is left.
    await t.connections.prisma.track.delete({ where: { id: pub.id } });
    expect(await artists(owner)).toEqual([
      { name: b, albumCount: 1 },
      { name: `Gamma ${word}`, albumCount: 1 },
    ]);
    await expectConsistent();
    await t.connections.prisma.track.delete({ where: { id: theirs.id } });
    expect((await artists(other)).map((x) => x.name)).toEqual([b]);
    await expectConsistent();
  });
});
