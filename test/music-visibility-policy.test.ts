/**
 * One visibility policy, every surface agrees (issue 30, item 6). A property test over every
 * (owner's role, visibility, viewer) combination, and random ones besides: each surface's answer
 * equals the policy's predicate (services/visibility-policy.ts) for its kind of access. By id
 * (`read`): REST GET, comments, plays, /rest getSong. Lists (`list`): /rest search3 for the
 * viewer; a profile and trending, which are shared and so evaluated as the anonymous viewer.
 */
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role } from '../src/music/auth-context.js';
import type { Visibility } from '../src/music/services/visibility-policy.js';
import { maySee, VISIBILITIES, type Access, type Viewer } from '../src/music/services/visibility-policy.js';
import { addReadyVersion, clientKeys } from './helpers/library-rows.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { PASSWORD, signupUser, type TestUser } from './helpers/music-domain.js';
import { analyticsService } from './helpers/music-services.js';

type ViewerKind = 'anonymous' | 'owner' | 'other user' | 'other admin';
const VIEWERS: readonly ViewerKind[] = ['anonymous', 'owner', 'other user', 'other admin'];
const OWNER_ROLES: readonly Role[] = ['user', 'admin'];

interface Account extends TestUser {
  role: Role;
  key: string;
}

describe('visibility policy', () => {
  let t: MusicTestApp;
  const word = `vis${randomBytes(4).toString('hex')}`;
  const accounts = new Map<string, Account>();
  /** tracks[ownerRole][visibility] = track id */
  const tracks = new Map<string, string>();

  async function account(name: string, role: Role): Promise<Account> {
    const user = await signupUser(t.app, name);
    if (role === 'admin') {
      await t.connections.prisma.user.update({ where: { id: user.id }, data: { role: 'admin' } });
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/login',
        payload: { login: user.handle, password: PASSWORD },
      });
      user.token = login.json().token;
      user.headers = { authorization: `Bearer ${user.token}` };
    }
    const key = (await clientKeys(t.app, [user])).get(user.id)!;
    return { ...user, role, key };
  }

  beforeAll(async () => {
    t = await createMusicTestApp({ RATE_LIMITS: 'off' });
    for (const [name, role] of [
      ['owner user', 'user'],
      ['owner admin', 'admin'],
      ['other user', 'user'],
      ['other admin', 'admin'],
    ] as const)
      accounts.set(name, await account(name.replace(' ', '_').slice(0, 8), role));
    for (const ownerRole of OWNER_ROLES) {
      const owner = accounts.get(`owner ${ownerRole}`)!;
      for (const visibility of VISIBILITIES) {
        const created = await t.app.inject({
          method: 'POST',
          url: '/api/v1/tracks',
          headers: owner.headers,
          payload: { title: `${word} ${ownerRole} ${visibility}`, visibility },
        });
        const id = created.json().id as string;
        await addReadyVersion(t.connections, id, owner.id, {
          title: `${word} ${ownerRole} ${visibility}`,
          artist: `Artist ${word}`,
          album: `Album ${word} ${ownerRole} ${visibility}`,
        });
        // A play by the owner, who may play every own track: trending must still hide the non-public.
        const play = await t.app.inject({
          method: 'POST',
          url: '/api/v1/analytics/plays',
          headers: owner.headers,
          payload: { track_id: id },
        });
        expect(play.statusCode, play.body).toBe(202);
        tracks.set(`${ownerRole}/${visibility}`, id);
      }
    }
    await analyticsService(t, Date.now).rollup();
  }, 120_000);
  afterAll(async () => {
    // The library is shared with the suite's other /rest tests: its public songs leave with it.
    if (t) await t.connections.prisma.track.deleteMany({ where: { id: { in: [...tracks.values()] } } });
    await t?.close();
  });

  function viewerAccount(kind: ViewerKind, ownerRole: Role): Account | undefined {
    if (kind === 'anonymous') return undefined;
    if (kind === 'owner') return accounts.get(`owner ${ownerRole}`);
    return accounts.get(kind);
  }

  const policy = (access: Access, viewer: Account | undefined, owner: Account, visibility: Visibility) =>
    maySee(access, viewer && ({ userId: viewer.id, role: viewer.role } satisfies Viewer), {
      ownerUserId: owner.id,
      visibility,
    });

  /** What each surface answers: true when it shows the track. */
  async function surfaces(viewer: Account | undefined, owner: Account, id: string) {
    const headers = viewer?.headers ?? {};
    const get = (url: string) => t.app.inject({ url, headers });
    const rest = async (endpoint: string, query: string) => {
      if (!viewer) return undefined;
      const res = await get(`/rest/${endpoint}?f=json&apiKey=${encodeURIComponent(viewer.key)}&${query}`);
      return res.json()['subsonic-response'];
    };
    const song = await rest('getSong', `id=${id}`);
    const search = await rest('search3', `query=${word}&songCount=50&albumCount=0&artistCount=0`);
    const trending = (await get('/api/v1/trending?window=day&limit=100')).json().items as {
      track: { id: string };
    }[];
    const profile = (await get(`/api/v1/users/${owner.handle}?limit=100`)).json().tracks.items as {
      id: string;
    }[];
    const play = await t.app.inject({
      method: 'POST',
      url: '/api/v1/analytics/plays',
      headers,
      payload: { track_id: id },
      remoteAddress: '192.0.2.55',
    });
    return {
      read: {
        'REST GET': (await get(`/api/v1/tracks/${id}`)).statusCode === 200,
        'REST comments': (await get(`/api/v1/comments?track_id=${id}`)).statusCode === 200,
        'REST play': play.statusCode === 202,
        ...(song ? { '/rest getSong': song.status === 'ok' } : {}),
      },
      list: {
        ...(search
          ? { '/rest search3': (search.searchResult3.song ?? []).some((s: { id: string }) => s.id === id) }
          : {}),
      },
      shared: {
        profile: profile.some((p) => p.id === id),
        trending: trending.some((i) => i.track.id === id),
      },
    };
  }

  const check = async (ownerRole: Role, visibility: Visibility, kind: ViewerKind) => {
    const owner = accounts.get(`owner ${ownerRole}`)!;
    const viewer = viewerAccount(kind, ownerRole);
    const id = tracks.get(`${ownerRole}/${visibility}`)!;
    const seen = await surfaces(viewer, owner, id);
    const label = `${kind} viewing a ${visibility} track of an owner with role ${ownerRole}`;
    for (const [surface, shown] of Object.entries(seen.read))
      expect(shown, `${surface}: ${label}`).toBe(policy('read', viewer, owner, visibility));
    for (const [surface, shown] of Object.entries(seen.list))
      expect(shown, `${surface}: ${label}`).toBe(policy('list', viewer, owner, visibility));
    for (const [surface, shown] of Object.entries(seen.shared))
      expect(shown, `${surface}: ${label}`).toBe(policy('list', undefined, owner, visibility));
  };

  it('every surface agrees with the policy for every (owner role, visibility, viewer)', async () => {
    const every = OWNER_ROLES.flatMap((r) =>
      VISIBILITIES.flatMap((v) => VIEWERS.map((k) => [r, v, k] as const)),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...OWNER_ROLES),
        fc.constantFrom(...VISIBILITIES),
        fc.constantFrom(...VIEWERS),
        check,
      ),
      { examples: every.map(([r, v, k]) => [r, v, k]), numRuns: 8 },
    );
  }, 120_000);

  it("the policy table: by id, unlisted is anyone's and private is the owner's and admins'; lists are public or own", () => {
    const as = (userId: string, role: Role): Viewer => ({ userId, role });
    const track = (visibility: Visibility) => ({ ownerUserId: 'o', visibility });
    expect(VISIBILITIES.map((v) => maySee('read', undefined, track(v)))).toEqual([true, true, false]);
    expect(VISIBILITIES.map((v) => maySee('read', as('x', 'admin'), track(v)))).toEqual([true, true, true]);
    expect(VISIBILITIES.map((v) => maySee('list', as('x', 'admin'), track(v)))).toEqual([true, false, false]);
    expect(VISIBILITIES.map((v) => maySee('list', as('o', 'user'), track(v)))).toEqual([true, true, true]);
  });
});
