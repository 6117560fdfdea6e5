/**
 * An artist's profile: a short bio the artist edits (PATCH /api/v1/users/me, bounded, newlines
 * kept, other control characters refused) shown on GET /api/v1/users/:handle with the picture URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { signupUser, type TestUser } from './helpers/music-domain.js';

describe('artist profile', () => {
  let t: MusicTestApp;
  let artist: TestUser;
  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
    artist = await signupUser(t.app, 'bio');
  });
  afterAll(async () => t.close());

  const patch = (url: string, payload: unknown, who: TestUser | null = artist) =>
    t.app.inject({
      method: 'PATCH',
      url,
      ...(who ? { headers: who.headers } : {}),
      payload: payload as object,
    });

  it('the artist writes a bio of several lines; the profile shows it with the picture URL', async () => {
    const bio = '  Noise from Leeds.\nTapes since 1999.\r\n\tLive on Fridays.  ';
    const res = await patch('/api/v1/users/me', { bio });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user).toMatchObject({ bio: bio.trim(), picture_url: null });
    const profile = await t.app.inject({ url: `/api/v1/users/${artist.handle}` });
    expect(profile.json()).toMatchObject({ handle: artist.handle, bio: bio.trim(), picture_url: null });
    expect((await t.app.inject({ url: '/api/v1/me', headers: artist.headers })).json().bio).toBe(bio.trim());
    // The old path takes it too; an empty bio clears it.
    expect((await patch('/api/v1/me', { bio: '' })).json().user.bio).toBe('');
  });

  it('refuses a bio too long or with control characters, and anyone but the signed-in artist', async () => {
    for (const bio of ['x'.repeat(2001), 'bell\u0007', 'nul\u0000', 'esc\u001b[31m']) {
      const res = await patch('/api/v1/users/me', { bio });
      expect(res.statusCode, JSON.stringify(bio)).toBe(400);
      expect(res.json().errors[0].path).toBe('/bio');
    }
    expect((await patch('/api/v1/users/me', { bio: 'x' }, null)).statusCode).toBe(401);
    expect((await patch('/api/v1/users/me', { bio: 42 })).statusCode).toBe(400);
    const profile = await t.app.inject({ url: `/api/v1/users/${artist.handle}` });
    expect(profile.json().bio).toBe('');
  });
});
