/**
 * The music child of bench/health-under-load.ts (`--serve`): the app on a fresh database with
 * what the worst inputs need — a track whose version went through the real pipeline (a
 * music-worker process, ffmpeg: HLS, waveform, artwork in the object store), 500 ready tracks
 * with distinct albums, plays and a rollup (trending), 100 comments, a 500 MB upload — and the
 * list of every route the app registers (app.printRoutes), handed to the parent.
 */
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { MusicConfig } from '../../src/music/config.js';
import { openFlowEvents } from '../../test/helpers/flow-events.js';
import { generateAudio } from '../../test/helpers/generated-audio.js';
import { routesOf } from './health-routes.js';
import { listenLocal, serveUntilParentEnds, startBenchWorker, withBenchMusic } from './music-app.js';
import { seedPlays, seedReadyTrack } from './music-seed.js';

const MiB = 1024 * 1024;
export const PASSWORD = 'a long enough passphrase';
/** Tracks beside the pipeline's: Subsonic's and the API's largest pages (500, 100) fill up. */
const LIBRARY_TRACKS = 500;
const TRACK_SECONDS = 180;

export interface MusicServed {
  url: string;
  /** Every route the app registers: `METHOD path`. */
  routes: string[];
  /** Bearer tokens: the owner of every track, an admin, and one account per self-revoking row. */
  token: string;
  adminToken: string;
  handle: string;
  apiKey: string;
  /** The pipeline's track, its current version and asset, one of its comments. */
  trackId: string;
  versionId: string;
  assetId: string;
  commentId: string;
  /** A 500 MB upload at the largest part size, for the part PUT and status rows. */
  uploadId: string;
  uploadAssetId: string;
  partSize: number;
  /** A file of one whole part (removed with the child), for a sender outside the polling process. */
  partFile: string;
}

async function injectJson<T>(
  app: FastifyInstance,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  payload: unknown,
  token?: string,
): Promise<T> {
  const res = await app.inject({
    method,
    url,
    payload: payload as Record<string, unknown>,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json<T>();
}

const signup = async (app: FastifyInstance, handle: string): Promise<{ token: string; id: string }> => {
  const r = await injectJson<{ token: string; user: { id: string } }>(app, 'POST', '/api/v1/auth/signup', {
    handle,
    email: `${handle}@example.org`,
    password: PASSWORD,
  });
  return { token: r.token, id: r.user.id };
};

/** A generated track with a cover, uploaded through the API, through the real pipeline to ready. */
async function pipelineTrack(
  app: FastifyInstance,
  config: Readonly<MusicConfig>,
  token: string,
  dir: string,
): Promise<{ trackId: string; versionId: string; assetId: string }> {
  const file = join(dir, 'source.flac');
  const tags = { title: 'Bench pipeline', artist: 'Bench', album: 'Bench album', genre: 'Bench' };
  await generateAudio(file, { seconds: TRACK_SECONDS, sineSeconds: TRACK_SECONDS - 5, cover: true, tags });
  const data = await readFile(file);
  const init = await injectJson<{
    upload_id: string;
    asset_id: string;
    part_size: number;
    part_count: number;
  }>(
    app,
    'POST',
    '/api/v1/upload/multipart/init',
    {
      filename: 'source.flac',
      content_type: 'audio/flac',
      size: data.length,
      sha256: createHash('sha256').update(data).digest('hex'),
    },
    token,
  );
  const parts = [];
  for (let n = 1; n <= init.part_count; n++) {
    const res = await app.inject({
      method: 'PUT',
      url: `/api/v1/upload/multipart/${init.upload_id}/parts/${n}`,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
      payload: data.subarray((n - 1) * init.part_size, n * init.part_size),
    });
    if (res.statusCode !== 200) throw new Error(`part ${n}: ${res.statusCode} ${res.body}`);
    parts.push({ part_number: n, etag: res.json<{ etag: string }>().etag });
  }
  await injectJson(
    app,
    'POST',
    '/api/v1/upload/multipart/complete',
    { upload_id: init.upload_id, asset_id: init.asset_id, parts },
    token,
  );
  const track = await injectJson<{ id: string }>(
    app,
    'POST',
    '/api/v1/tracks',
    { title: 'Bench pipeline' },
    token,
  );
  const { stop: stopWorker } = await startBenchWorker(config);
  const flow = await openFlowEvents(config);
  try {
    const version = await app.inject({
      method: 'POST',
      url: `/api/v1/tracks/${track.id}/versions`,
      headers: { authorization: `Bearer ${token}` },
      payload: { asset_id: init.asset_id },
    });
    if (version.statusCode !== 202) throw new Error(`version: ${version.statusCode} ${version.body}`);
    const versionId = version.json<{ id: string }>().id;
    await flow.finalized(versionId);
    return { trackId: track.id, versionId, assetId: init.asset_id };
  } finally {
    await flow.close();
    // Off while the rows run: the measured process is the API alone.
    await stopWorker();
  }
}

export async function serveMusic(): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'bench-health-music-'));
  try {
    // Mail goes to the parent's SMTP sink (BENCH_SMTP_PORT), so the mail-sending rows send for real.
    const smtpPort = process.env.BENCH_SMTP_PORT;
    const env = smtpPort ? { SMTP_HOST: '127.0.0.1', SMTP_PORT: smtpPort } : {};
    await withBenchMusic(
      join(dir, 'data'),
      async ({ app, config, connections }) => {
        const url = await listenLocal(app);
        const owner = await signup(app, 'benchuser');
        // As the mailed link leaves it: only a verified address may publish (mail is configured).
        await connections.prisma.user.update({
          where: { id: owner.id },
          data: { emailVerifiedAt: new Date() },
        });
        const admin = await signup(app, 'benchadmin');
        await connections.prisma.user.update({ where: { id: admin.id }, data: { role: 'admin' } });
        const adminLogin = await injectJson<{ token: string }>(app, 'POST', '/api/v1/auth/login', {
          login: 'benchadmin',
          password: PASSWORD,
        });
        const key = await injectJson<{ key: string }>(
          app,
          'POST',
          '/api/v1/me/client-keys',
          { name: 'bench' },
          owner.token,
        );
        const pipeline = await pipelineTrack(app, config, owner.token, dir);
        const library: string[] = [];
        for (let i = 0; i < LIBRARY_TRACKS; i++) {
          library.push(
            await seedReadyTrack(connections, owner.id, `Track ${i}`, {
              durationMs: 215_000,
              codec: 'flac',
              bitRate: 1_000_000,
              channels: 2,
              sampleRate: 44_100,
              hlsKey: `library/${i}/master.m3u8`,
              tagTitle: `Track ${i}`,
              tagArtist: `Artist ${i % 50}`,
              tagAlbum: `Album ${i}`,
              tagGenre: `Genre ${i % 20}`,
            }),
          );
        }
        await seedPlays(app, connections, config, [pipeline.trackId, ...library.slice(0, 99)]);
        let commentId = '';
        for (let i = 0; i < 100; i++) {
          const c = await injectJson<{ id: string }>(
            app,
            'POST',
            '/api/v1/comments',
            { track_id: pipeline.trackId, body: `${i} ${'x'.repeat(1990)}`, position_ms: i * 1000 },
            owner.token,
          );
          commentId ||= c.id;
        }
        const upload = await injectJson<{ upload_id: string; asset_id: string; part_size: number }>(
          app,
          'POST',
          '/api/v1/upload/multipart/init',
          { filename: 'big.flac', content_type: 'audio/flac', size: 500 * 1000 * 1000, part_size: 100 * MiB },
          owner.token,
        );
        const partFile = join(dir, 'part.bin');
        await writeFile(partFile, Buffer.alloc(upload.part_size, 1));
        await serveUntilParentEnds({
          url,
          routes: routesOf(app),
          token: owner.token,
          adminToken: adminLogin.token,
          handle: 'benchuser',
          apiKey: key.key,
          ...pipeline,
          commentId,
          uploadId: upload.upload_id,
          uploadAssetId: upload.asset_id,
          partSize: upload.part_size,
          partFile,
        } satisfies MusicServed);
      },
      { env },
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
