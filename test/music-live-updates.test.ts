/**
 * Live updates across instances: two music-api apps (A and B, each listening on its own port,
 * sharing PostgreSQL, Redis under this test's key prefix, and the object store) and one real
 * music-worker process. An upload on A is watched from B, step by step; a reconnect resumes
 * without loss; a slow reader is cut while the others keep receiving.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RedisEventStream } from '../src/music/repositories/event-stream-repository.js';
import { VERSION_STEPS } from '../src/music/services/live-events.js';
import type { CutNotice } from '../src/music/services/live-hub.js';
import { LiveClient, type LiveMessage } from './helpers/live-client.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { signupUser, uploadViaApi, type TestUser } from './helpers/music-domain.js';
import { testKeyPrefix, testQueuePrefix } from './helpers/music-env.js';
import { generateAudio, WorkerFleet } from './helpers/music-worker.js';

const wsUrl = (t: MusicTestApp): string =>
  `ws://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/api/v1/events`;

describe('live updates across two API instances and a worker', () => {
  let a: MusicTestApp;
  let b: MusicTestApp;
  let fleet: WorkerFleet;
  let dir: string;
  let owner: TestUser;
  let fan: TestUser;
  let stream: RedisEventStream;
  const clients: LiveClient[] = [];
  const connect = async (t: MusicTestApp, hello: { token?: string; last_id?: string }) => {
    const c = await LiveClient.connect(wsUrl(t), hello);
    clients.push(c);
    return c;
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'live-'));
    const keyPrefix = testKeyPrefix();
    const shared = { RATE_LIMITS: 'off', QUEUE_PREFIX: testQueuePrefix() };
    a = await createMusicTestApp(shared, { keyPrefix, dataDir: dir });
    b = await createMusicTestApp(
      { ...shared, EVENTS_MAX_BUFFERED_BYTES: '262144', EVENTS_MAX_CONNECTIONS_PER_USER: '3' },
      { keyPrefix, dataDir: dir },
    );
    await a.app.listen({ port: 0, host: '127.0.0.1' });
    await b.app.listen({ port: 0, host: '127.0.0.1' });
    fleet = new WorkerFleet(a.config, { MUSIC_CACHE_KEY_PREFIX: keyPrefix });
    await fleet.launch();
    stream = new RedisEventStream(a.connections.redis, a.config.cacheUrl, { prefix: keyPrefix, window: 500 });
    owner = await signupUser(a.app, 'owner');
    fan = await signupUser(b.app, 'fan');
  });

  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await fleet?.stopAll();
    await a?.close();
    await b?.close();
    await rm(dir, { recursive: true, force: true });
  });

  let versionEvents: LiveMessage[] = [];
  let trackId: string;

  it('an upload on A is seen from B: every step, in order, queued first and ready last', async () => {
    const watcher = await connect(b, { token: owner.token });
    const file = join(dir, 'song.flac');
    await generateAudio(file, { seconds: 8, cover: true, codec: 'flac' });
    const assetId = await uploadViaApi(a.app, owner, await readFile(file));
    const track = await a.app.inject({
      method: 'POST',
      url: '/api/v1/tracks',
      headers: owner.headers,
      payload: { title: 'Live one', visibility: 'public' },
    });
    expect(track.statusCode, track.body).toBe(201);
    trackId = track.json<{ id: string }>().id;
    const added = await a.app.inject({
      method: 'POST',
      url: `/api/v1/tracks/${trackId}/versions`,
      headers: owner.headers,
      payload: { asset_id: assetId },
    });
    expect(added.statusCode, added.body).toBe(202);
    const versionId = added.json<{ id: string }>().id;
    const end = await watcher.next(
      (m) => (m.type === 'version.ready' || m.type === 'version.failed') && m.data?.version_id === versionId,
    );
    expect(end.type, JSON.stringify(end.data)).toBe('version.ready');

    versionEvents = watcher.events().filter((m) => m.data?.version_id === versionId);
    // Exactly what the bus stored for the owner, in the same order: nothing lost, nothing reordered.
    const stored = (await stream.all(owner.id)).filter(
      (e) => 'version_id' in e.event.data && e.event.data.version_id === versionId,
    );
    expect(versionEvents.map((m) => m.id)).toEqual(stored.map((e) => e.id));
    expect(versionEvents.map((m) => m.type)).toEqual(stored.map((e) => e.event.type));
    expect(versionEvents[0]!.type).toBe('version.queued');
    expect(versionEvents.at(-1)!.type).toBe('version.ready');
    for (const step of VERSION_STEPS) {
      const mine = versionEvents.filter((m) => m.type === 'version.step' && m.data?.step === step);
      const statuses = mine.map((m) => m.data!.status);
      expect(statuses[0], step).toBe('started');
      expect(['done', 'skipped'], step).toContain(statuses.at(-1));
      expect(
        statuses.slice(1, -1).every((s) => s === 'progress'),
        `${step}: ${statuses.join(',')}`,
      ).toBe(true);
      const percents = mine.flatMap((m) =>
        m.data!.percent === undefined ? [] : [m.data!.percent as number],
      );
      expect([...percents].sort((x, y) => x - y)).toEqual(percents);
    }
    expect(versionEvents.some((m) => m.data?.step === 'transcoding' && m.data.status === 'progress')).toBe(
      true,
    );
    // Stream ids only grow.
    const ids = versionEvents.map((m) => m.id!);
    expect([...new Set(ids)]).toEqual(ids);
  }, 120_000);

  it('a reconnect resumes after the last id it saw, without loss or repeats', async () => {
    const first = await connect(a, { token: owner.token });
    const comment = async (body: string) => {
      const res = await b.app.inject({
        method: 'POST',
        url: '/api/v1/comments',
        headers: fan.headers,
        payload: { track_id: trackId, body },
      });
      expect(res.statusCode, res.body).toBe(201);
    };
    await comment('one');
    const seen = await first.next((m) => m.type === 'comment.created' && m.data?.excerpt === 'one');
    expect(seen.data).toMatchObject({
      track_id: trackId,
      track_title: 'Live one',
      author: { handle: fan.handle },
    });
    await first.close();
    // Published while the client is away, from the other instance.
    await comment('two');
    await comment('three');
    const again = await connect(b, { token: owner.token, last_id: seen.id! });
    expect(again.messages[0]).toMatchObject({ type: 'hello', resumed: true });
    await again.next((m) => m.data?.excerpt === 'three');
    await comment('four');
    await again.next((m) => m.data?.excerpt === 'four');
    const comments = again.events().filter((m) => m.type === 'comment.created');
    expect(comments.map((m) => m.data?.excerpt)).toEqual(['two', 'three', 'four']);
    // The author is not told about their own comment.
    expect(first.messages.every((m) => m.data?.author === undefined || m.data.author !== owner.handle)).toBe(
      true,
    );
  });

  it('a resume point older than the window says so (resync) and sends what is kept', async () => {
    const c = await connect(b, { token: owner.token, last_id: '1-0' });
    expect(c.messages[0]).toMatchObject({ type: 'hello', resumed: false });
    expect(c.messages[1]).toMatchObject({ type: 'resync' });
    expect(c.events().length).toBeGreaterThan(0);
  });

  it('a slow reader is cut with a reason; another reader of the same user gets everything', async () => {
    const user = await signupUser(a.app, 'slow');
    const slow = await connect(b, { token: user.token });
    const steady = await connect(b, { token: user.token });
    slow.pause();
    const cut = new Promise<CutNotice>((resolve) =>
      b.app.liveHub.on('cut', (n) => {
        if (n.userId === user.id) resolve(n);
      }),
    );
    let isCut = false;
    void cut.then(() => (isCut = true));
    const filler = 'x'.repeat(1000);
    let sent = 0;
    for (let round = 0; round < 40 && !isCut; round++) {
      await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          stream.publish(user.id, {
            type: 'comment.created',
            data: {
              track_id: trackId,
              track_title: 'Live one',
              comment_id: `${round}-${i}`,
              author: { handle: 'bot', display_name: 'Bot' },
              excerpt: filler,
              position_ms: null,
            },
          }),
        ),
      );
      sent += 200;
      // The steady reader keeps up: it has every event so far before the next round.
      const last = `${round}-199`;
      await steady.next((m) => m.data?.comment_id === last);
    }
    const notice = await cut;
    expect(notice).toMatchObject({ code: 4009 });
    expect(notice.reason).toMatch(/slow reader/);
    slow.resume();
    expect(await slow.closed).toMatchObject({ code: 4009 });
    expect(steady.events().filter((m) => m.type === 'comment.created')).toHaveLength(sent);
    expect(b.app.liveHub.connectionsOf(user.id)).toBe(1);
  }, 120_000);

  it('caps connections per user on an instance', async () => {
    const user = await signupUser(a.app, 'cap');
    for (let i = 0; i < 3; i++) await connect(b, { token: user.token });
    const fourth = await LiveClient.open(wsUrl(b));
    if (!(fourth instanceof LiveClient)) throw new Error('refused');
    fourth.send({ type: 'hello', v: 1, token: user.token });
    expect(await fourth.closed).toMatchObject({ code: 4008, reason: expect.stringMatching(/at most 3/) });
  });
});
