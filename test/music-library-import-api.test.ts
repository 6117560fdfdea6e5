/**
 * POST/GET /api/v1/admin/library/imports: admins only, folders only inside LIBRARY_IMPORT_ROOTS,
 * a `library-import` job enqueued, progress and problems read back, pause and resume.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLibraryImporter } from '../src/music/library-wiring.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { signupUser, type TestUser } from './helpers/music-domain.js';
import { generateAudio, tokenWithRole } from './helpers/music-worker.js';

let t: MusicTestApp;
let dir: string;
let allowed: string;
let owner: TestUser;
let admin: string;

beforeAll(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), 'library-api-')));
  allowed = join(dir, 'allowed');
  await mkdir(join(allowed, 'album'), { recursive: true });
  await generateAudio(join(allowed, 'album', 'one.flac'), { seconds: 0.5, tags: { title: 'One' } });
  await writeFile(join(allowed, 'album', 'notes.txt'), 'liner notes');
  await mkdir(join(dir, 'outside'));
  t = await createMusicTestApp({ RATE_LIMITS: 'off', LIBRARY_IMPORT_ROOTS: allowed });
  owner = await signupUser(t.app, 'own');
  admin = await tokenWithRole(t, 'admin');
}, 120_000);

afterAll(async () => {
  await t.close();
  await rm(dir, { recursive: true, force: true });
});

const post = (url: string, token: string | undefined, payload?: unknown) =>
  t.app.inject({
    method: 'POST',
    url,
    ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });

describe('admin library import API', () => {
  it('refuses non-admins and folders outside the allowed roots', async () => {
    const body = { directory: allowed, owner: owner.handle };
    expect((await post('/api/v1/admin/library/imports', undefined, body)).statusCode).toBe(401);
    expect((await post('/api/v1/admin/library/imports', owner.token, body)).statusCode).toBe(403);
    const outside = await post('/api/v1/admin/library/imports', admin, {
      ...body,
      directory: join(dir, 'outside'),
    });
    expect(outside.statusCode, outside.body).toBe(400);
    expect(outside.body).toContain('LIBRARY_IMPORT_ROOTS');
    // A path that climbs out of a root is resolved before the check.
    const climb = await post('/api/v1/admin/library/imports', admin, {
      ...body,
      directory: `${allowed}/../outside`,
    });
    expect(climb.statusCode, climb.body).toBe(400);
    const missing = await post('/api/v1/admin/library/imports', admin, {
      ...body,
      directory: join(allowed, 'nope'),
    });
    expect(missing.statusCode, missing.body).toBe(400);
    // Outside the roots, what exists and what does not get the same answer: no lookup tells them apart.
    for (const probe of ['/etc/shadow', '/etc', '/no/such/folder', `${dir}/outside/../../nope`]) {
      const refused = await post('/api/v1/admin/library/imports', admin, { ...body, directory: probe });
      expect(refused.statusCode, probe).toBe(400);
      expect(refused.json(), probe).toEqual(outside.json());
    }
    const nobody = await post('/api/v1/admin/library/imports', admin, { ...body, owner: 'no_such_user_x' });
    expect(nobody.statusCode, nobody.body).toBe(400);
    expect(nobody.body).toContain('no_such_user_x');
  });

  it('starts an import as a job, answers its progress and problems, pauses and resumes it', async () => {
    const started = await post('/api/v1/admin/library/imports', admin, {
      directory: allowed,
      owner: owner.handle,
      visibility: 'private',
      in_place: true,
    });
    expect(started.statusCode, started.body).toBe(202);
    const view = started.json<{ import_id: string; status: string; visibility: string }>();
    expect(view).toMatchObject({ status: 'queued', visibility: 'private', in_place: true });
    const notBoolean = await post('/api/v1/admin/library/imports', admin, {
      directory: allowed,
      owner: owner.handle,
      in_place: 'yes',
    });
    expect(notBoolean.statusCode, notBoolean.body).toBe(400);
    const redis = new Redis(t.config.cacheUrl, { maxRetriesPerRequest: null });
    const queue = new Queue('library-import', { connection: redis, prefix: t.config.queuePrefix });
    try {
      const jobs = await queue.getJobs(['waiting']);
      expect(jobs.map((j) => j.data)).toContainEqual({ importId: view.import_id });
    } finally {
      await queue.close();
      redis.disconnect();
    }
    // Again for the same folder and owner: the same import, not a second one.
    const again = await post('/api/v1/admin/library/imports', admin, {
      directory: allowed,
      owner: owner.handle,
    });
    expect(again.json<{ import_id: string }>().import_id).toBe(view.import_id);
    // 30 at once for a folder with no import yet: one import (the one-unfinished index decides the race).
    const sub = join(allowed, 'album');
    const racing = await Promise.all(
      Array.from({ length: 30 }, () =>
        post('/api/v1/admin/library/imports', admin, { directory: sub, owner: owner.handle }),
      ),
    );
    expect(racing.map((r) => r.statusCode)).toEqual(Array.from({ length: 30 }, () => 202));
    expect(new Set(racing.map((r) => r.json<{ import_id: string }>().import_id)).size).toBe(1);
    expect(await t.connections.prisma.libraryImport.count({ where: { root: sub } })).toBe(1);

    const paused = await post(`/api/v1/admin/library/imports/${view.import_id}/pause`, admin);
    expect(paused.statusCode, paused.body).toBe(200);
    expect(paused.json<{ status: string }>().status).toBe('paused');
    // Pausing what is paused (a second admin, a retry) answers the import as it is, not a conflict.
    const pauses = await Promise.all(
      Array.from({ length: 10 }, () => post(`/api/v1/admin/library/imports/${view.import_id}/pause`, admin)),
    );
    expect(pauses.map((r) => [r.statusCode, r.json<{ status: string }>().status])).toEqual(
      Array.from({ length: 10 }, () => [200, 'paused']),
    );
    // The job's run (as the worker does it) leaves a paused import alone.
    const wiring = createLibraryImporter(t.config, t.connections);
    try {
      expect(
        (await wiring.importer.run(view.import_id, randomUUID(), { from: ['queued', 'running'] })).status,
      ).toBe('paused');
      expect((await post(`/api/v1/admin/library/imports/${view.import_id}/resume`, admin)).statusCode).toBe(
        200,
      );
      const done = await wiring.importer.run(view.import_id, randomUUID(), { from: ['queued', 'running'] });
      expect(done).toMatchObject({ status: 'done', imported: 1 });
    } finally {
      await wiring.close();
    }
    const read = await t.app.inject({
      method: 'GET',
      url: `/api/v1/admin/library/imports/${view.import_id}`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json()).toMatchObject({
      status: 'done',
      imported: 1,
      problems: [
        { path: 'album/notes.txt', kind: 'skipped', reason: expect.stringContaining('not audio') as string },
      ],
    });
    expect((await post(`/api/v1/admin/library/imports/${view.import_id}/resume`, admin)).statusCode).toBe(
      409,
    );
    const track = await t.connections.prisma.track.findFirstOrThrow({ where: { ownerUserId: owner.id } });
    expect(track).toMatchObject({ title: 'One', visibility: 'private' });
    const unknown = await t.app.inject({
      method: 'GET',
      url: `/api/v1/admin/library/imports/${randomUUID()}`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(unknown.statusCode).toBe(404);
  }, 120_000);
});
