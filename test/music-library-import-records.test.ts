/**
 * The library import's batch records (library-batch-sql.ts: one SQL statement a table, the batch
 * as one JSON parameter) against real PostgreSQL: every column comes back as given, tags with
 * quotes, backslashes, braces, commas, the word NULL, emoji and other scripts included; content
 * twice in a batch or already there is one asset; a file row without a track is updated; a
 * batch with one bad row writes nothing.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AudioProbe } from '../src/music/ffmpeg-commands/probe.js';
import { PrismaLibraryRepository, type ImportedFile } from '../src/music/repositories/library-repository.js';
import { createMusicDatabase, type MusicDatabase } from '../src/music/repositories/prisma.js';
import { versionFields } from '../src/music/services/track-service.js';
import { testDatabaseUrl, uniqueSuffix } from './helpers/music-env.js';

let db: MusicDatabase;
let library: PrismaLibraryRepository;
let owner: string;

beforeAll(async () => {
  db = createMusicDatabase(testDatabaseUrl());
  library = new PrismaLibraryRepository(db.prisma);
  const handle = `rec${uniqueSuffix()}`;
  owner = (
    await db.prisma.user.create({
      data: { handle, email: `${handle}@example.org`, passwordHash: 'x', displayName: handle },
    })
  ).id;
});
afterAll(async () => {
  await db.prisma.user.delete({ where: { id: owner } });
  await db.close();
});

async function newImport(): Promise<string> {
  const root = `/srv/music-${uniqueSuffix()}`;
  return (
    await library.createImport({
      ownerUserId: owner,
      requestedBy: null,
      root,
      visibility: 'unlisted',
      prune: false,
    })
  ).id;
}

/** Text that breaks naive SQL or array literals: quotes, backslash, braces, commas, NULL, emoji, other scripts. */
const NASTY = [
  `O'Brien "Live" \\ at {Café}, NULL`,
  'NULL',
  '🎸 Ünïcødé — 東京 / Москва ‏עברית‎',
  `'); DROP TABLE tracks; --`,
  '{"a":1}',
];

function probe(n: number, title: string | null): AudioProbe {
  return {
    format: 'mp3',
    codec: 'mp3',
    duration_ms: 181_234 + n,
    bit_rate: 320_000,
    channels: 2,
    sample_rate: 44_100,
    tags: {
      title,
      artist: NASTY[(n + 1) % NASTY.length] ?? null,
      album_artist: NASTY[(n + 2) % NASTY.length] ?? null,
      album: NASTY[(n + 3) % NASTY.length] ?? null,
      genre: 'Rock, "Indie"',
      track_number: n + 1,
      disc_number: 2,
      year: 1999,
      date: '1999-12-31',
      musicbrainz_recording_id: randomUUID(),
      musicbrainz_track_id: null,
      musicbrainz_album_id: randomUUID(),
      musicbrainz_artist_id: null,
      musicbrainz_album_artist_id: null,
    },
  };
}

function file(importId: string, root: string, n: number, sha: string): ImportedFile {
  const p = probe(n, NASTY[n % NASTY.length] ?? null);
  return {
    importId,
    ownerUserId: owner,
    root,
    path: `${NASTY[n % NASTY.length]}/${n} ${sha.slice(0, 8)}.mp3`,
    size: 9_876_543_210 + n,
    mtimeMs: 1_732_800_000_123.375 + n,
    ino: 4_000_000_000 + n,
    sha256: sha,
    coverSha256: n % 2 === 0 ? 'c'.repeat(64) : null,
    embeddedCover: n % 2 === 1,
    objectKey: `${owner}/library/${sha}`,
    filename: `${n} ${NASTY[n % NASTY.length]}.mp3`.slice(0, 255),
    contentType: 'audio/mpeg',
    probe: p,
    versionFields: versionFields(p),
  };
}

const sha = (): string => (randomUUID() + randomUUID()).replaceAll('-', '').padEnd(64, '0').slice(0, 64);

describe('library import batch records (one statement a table)', () => {
  it('writes every column of the batch as given, whatever the text', async () => {
    const importId = await newImport();
    const { root } = (await library.findImport(importId))!;
    const files = NASTY.map((_, n) => file(importId, root, n, sha()));
    const started = await library.recordNewMany(
      files.map((f, n) => ({ file: f, title: `${NASTY[n]} #${n}`, visibility: 'unlisted' })),
    );
    expect(started).toHaveLength(files.length);
    for (const [n, f] of files.entries()) {
      const s = started[n]!;
      const track = await db.prisma.track.findUniqueOrThrow({ where: { id: s.trackId } });
      expect(track).toMatchObject({ ownerUserId: owner, title: `${NASTY[n]} #${n}`, visibility: 'unlisted' });
      const version = await db.prisma.trackVersion.findUniqueOrThrow({ where: { id: s.id } });
      expect(version).toMatchObject({
        ...f.versionFields,
        trackId: s.trackId,
        assetId: s.assetId,
        number: 1,
      });
      expect(version.status).toBe('pending');
      expect(version.tagArtist).toBe(NASTY[(n + 1) % NASTY.length]);
      const asset = await db.prisma.asset.findUniqueOrThrow({ where: { id: s.assetId } });
      expect(asset).toMatchObject({
        ownerUserId: owner,
        objectKey: f.objectKey,
        filename: f.filename,
        contentType: 'audio/mpeg',
        size: BigInt(f.size),
        sha256: f.sha256,
        status: 'uploaded',
      });
      expect(asset.probe).toEqual(f.probe);
      const row = await db.prisma.libraryFile.findFirstOrThrow({
        where: { ownerUserId: owner, root, path: f.path },
      });
      expect(row).toMatchObject({
        size: BigInt(f.size),
        mtimeMs: f.mtimeMs,
        sha256: f.sha256,
        coverSha256: f.coverSha256,
        embeddedCover: f.embeddedCover,
        trackId: s.trackId,
        versionId: s.id,
        seenBy: importId,
      });
      expect(row.updatedAt.getTime()).toBeGreaterThan(Date.now() - 60_000);
    }
    expect((await library.findImport(importId))?.imported).toBe(files.length);
  });

  it('makes one asset of content twice in a batch, and reuses an asset already there', async () => {
    const importId = await newImport();
    const { root } = (await library.findImport(importId))!;
    const same = sha();
    const twice = await library.recordNewMany(
      [file(importId, root, 0, same), { ...file(importId, root, 1, same), path: 'elsewhere/1.mp3' }].map(
        (f) => ({
          file: f,
          title: 't',
          visibility: 'public',
        }),
      ),
    );
    expect(twice[0]?.assetId).toBe(twice[1]?.assetId);
    expect(twice[0]?.trackId).not.toBe(twice[1]?.trackId);
    expect(await db.prisma.asset.count({ where: { objectKey: `${owner}/library/${same}` } })).toBe(1);

    // A later run (another import) with the same content: the asset there is used, none added.
    const later = await newImport();
    const again = await library.recordNewMany([
      { file: { ...file(later, root, 2, same), path: 'later.mp3' }, title: 't', visibility: 'public' },
      { file: file(later, root, 3, sha()), title: 'new', visibility: 'public' },
    ]);
    expect(again[0]?.assetId).toBe(twice[0]?.assetId);
    expect(again[1]?.assetId).not.toBe(twice[0]?.assetId);
    expect(await db.prisma.asset.count({ where: { objectKey: `${owner}/library/${same}` } })).toBe(1);
  });

  it('updates the row of a file whose track was deleted instead of adding one', async () => {
    const importId = await newImport();
    const { root } = (await library.findImport(importId))!;
    const old = await db.prisma.libraryFile.create({
      data: {
        ownerUserId: owner,
        root,
        path: 'kept.mp3',
        size: 1n,
        mtimeMs: 1,
        sha256: 'a'.repeat(64),
        embeddedCover: false,
        seenBy: randomUUID(),
      },
    });
    const f = { ...file(importId, root, 4, sha()), path: 'kept.mp3' };
    const [s] = await library.recordNewMany([
      { file: f, title: 'back', visibility: 'public', rowId: old.id },
    ]);
    const rows = await db.prisma.libraryFile.findMany({ where: { ownerUserId: owner, root } });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      id: old.id,
      sha256: f.sha256,
      size: BigInt(f.size),
      mtimeMs: f.mtimeMs,
      trackId: s?.trackId,
      versionId: s?.id,
      seenBy: importId,
    });
  });

  it('writes nothing of a batch one of whose rows the database refuses', async () => {
    const importId = await newImport();
    const { root } = (await library.findImport(importId))!;
    const good = file(importId, root, 0, sha());
    const bad = file(importId, root, 1, sha());
    bad.versionFields = { ...bad.versionFields, tagAlbum: 'x'.repeat(501) };
    await expect(
      library.recordNewMany([good, bad].map((f) => ({ file: f, title: 't', visibility: 'public' }))),
    ).rejects.toThrow();
    expect(
      await db.prisma.asset.count({ where: { objectKey: { in: [good.objectKey, bad.objectKey] } } }),
    ).toBe(0);
    expect(await db.prisma.libraryFile.count({ where: { ownerUserId: owner, root } })).toBe(0);
    expect((await library.findImport(importId))?.imported).toBe(0);
  });
});
