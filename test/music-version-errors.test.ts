/** A failed version's error text (ffmpeg's words) is for the track's owner and admins; others see the status. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { PASSWORD, signupUser, type TestUser } from './helpers/music-domain.js';

const DETAIL = 'transcode: ffmpeg failed (exit 1): /tmp/work-123/source.flac: Invalid data found';

describe('version error detail', () => {
  let t: MusicTestApp;
  let owner: TestUser;
  let other: TestUser;
  let admin: TestUser;
  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
    owner = await signupUser(t.app, 'owner');
    other = await signupUser(t.app, 'other');
    admin = await signupUser(t.app, 'admin');
    await t.connections.prisma.user.update({ where: { id: admin.id }, data: { role: 'admin' } });
    // The role is in the token: log in again to carry it.
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { login: admin.handle, password: PASSWORD },
    });
    admin = { ...admin, headers: { authorization: `Bearer ${login.json().token as string}` } };
  });
  afterAll(async () => t.close());

  async function failedTrack(visibility: 'public' | 'unlisted'): Promise<string> {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/tracks',
      headers: owner.headers,
      payload: { title: 'Broken', visibility },
    });
    const trackId = res.json().id as string;
    const { prisma } = t.connections;
    const asset = await prisma.asset.create({
      data: {
        ownerUserId: owner.id,
        objectKey: `${owner.id}/${randomUUID()}`,
        filename: 'song.flac',
        contentType: 'audio/flac',
        size: 1000n,
        status: 'uploaded',
      },
    });
    await prisma.trackVersion.create({
      data: { trackId, number: 1, assetId: asset.id, status: 'failed', error: DETAIL },
    });
    return trackId;
  }

  it('shows processing.error and items[].error to the owner and admins only', async () => {
    for (const visibility of ['public', 'unlisted'] as const) {
      const id = await failedTrack(visibility);
      for (const [who, sees] of [
        [undefined, false],
        [other, false],
        [owner, true],
        [admin, true],
      ] as const) {
        const headers = who ? who.headers : {};
        const track = await t.app.inject({ url: `/api/v1/tracks/${id}`, headers });
        expect(track.statusCode, track.body).toBe(200);
        expect(track.json().processing, `${who?.handle}`).toMatchObject({
          status: 'failed',
          error: sees ? DETAIL : null,
        });
        const versions = await t.app.inject({ url: `/api/v1/tracks/${id}/versions`, headers });
        expect(versions.statusCode, versions.body).toBe(200);
        expect(versions.json().items).toEqual([
          expect.objectContaining({ status: 'failed', error: sees ? DETAIL : null }),
        ]);
        if (!sees) expect(track.body + versions.body).not.toContain('ffmpeg');
      }
    }
  });
});
