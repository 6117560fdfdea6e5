/**
 * Each load scenario, briefly (seconds), against apps started here on loopback: it prints its
 * summary table and passes. The music API trusts loopback as a proxy and has its limits on, so
 * the rate-limit scenario checks the seed's burst + 1 and 1/r through the real limiter.
 */
import type { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runScenarios } from '../load-tests/run.js';
import { failuresOf, formatResult } from '../load-tests/lib/report.js';
import { playlistUris } from '../load-tests/scenarios/browse-stream.js';
import { parseProcessSample } from '../load-tests/scenarios/soak.js';
import { rateLimits, SEED_SCOPES } from '../load-tests/scenarios/rate-limit.js';
import { makeEvalApp } from './helpers/eval-app.js';
import { createMusicTestApp, publishTestHls, type MusicTestApp } from './helpers/music-app.js';
import { signupUser } from './helpers/music-domain.js';

describe('load scenarios (short runs)', () => {
  let music: MusicTestApp;
  let evalApp: FastifyInstance;
  let env: Record<string, string>;

  beforeAll(async () => {
    music = await createMusicTestApp({ RATE_LIMITS: 'on', TRUSTED_PROXIES: '127.0.0.1' });
    evalApp = await makeEvalApp();
    await music.app.listen({ port: 0, host: '127.0.0.1' });
    await evalApp.listen({ port: 0, host: '127.0.0.1' });
    // A track with a ready version whose HLS output is real ffmpeg output.
    const owner = await signupUser(music.app, 'load');
    const created = await music.app.inject({
      method: 'POST',
      url: '/api/v1/tracks',
      headers: { ...owner.headers, 'x-forwarded-for': '10.9.9.9' },
      payload: { title: 'Load test track', visibility: 'public' },
    });
    expect(created.statusCode, created.body).toBe(201);
    const trackId = created.json<{ id: string }>().id;
    const prisma = music.connections.prisma;
    const asset = await prisma.asset.create({
      data: {
        ownerUserId: owner.id,
        objectKey: `load/${trackId}.flac`,
        filename: 'load.flac',
        contentType: 'audio/flac',
        size: 1n,
        status: 'uploaded',
      },
    });
    const version = await prisma.trackVersion.create({
      data: { trackId, number: 1, assetId: asset.id, status: 'ready' },
    });
    // The helper's parameter is typed as a UUID string (its default comes from randomUUID).
    await publishTestHls(music.connections.stores.transcodes, version.id as ReturnType<typeof randomUUID>);
    await prisma.trackVersion.update({ where: { id: version.id }, data: { hlsKey: version.id } });
    await prisma.track.update({ where: { id: trackId }, data: { currentVersionId: version.id } });
    const port = (app: FastifyInstance) => (app.server.address() as AddressInfo).port;
    env = {
      EVAL_URL: `http://127.0.0.1:${port(evalApp)}`,
      MUSIC_URL: `http://127.0.0.1:${port(music.app)}`,
      MUSIC_TRACK_IDS: trackId,
      LOAD_SECONDS: '2',
      LOAD_CONNECTIONS: '4',
      LOAD_UPLOADS: '4',
      LOAD_RATE_SCOPES: 'api,auth',
      LOAD_RATE_CYCLES: '1',
      LOAD_SAMPLE_SECONDS: '1',
    };
  }, 120_000);

  afterAll(async () => {
    await evalApp?.close();
    await music?.close();
  });

  const run = async (scenario: string, extra: Record<string, string> = {}) => {
    let printed = '';
    const { results, failed } = await runScenarios(
      { ...env, LOAD_SCENARIOS: scenario, ...extra },
      (t) => (printed += t),
    );
    return { result: results[0]!, failed, printed };
  };

  it('eval mixed traffic: every tool answered, a summary table, pass', async () => {
    const { result, failed, printed } = await run('eval-mixed');
    expect(failuresOf(result), printed).toEqual([]);
    expect(failed).toBe(0);
    expect(printed).toMatch(/^== eval-mixed \([\d.]+ s\) ==\n\s+requests\s+req\/s\s+p50 ms\s+p99 ms/m);
    expect(printed).toMatch(/^tool calls\s+\d+/m);
    expect(result.rows[0]!.tally.status['2xx']).toBeGreaterThan(0);
    expect(printed).toMatch(/result: PASS/);
  }, 60_000);

  it('music browse and stream: track, signed playlists and every segment 200', async () => {
    const { result, printed } = await run('browse-stream');
    expect(failuresOf(result), printed).toEqual([]);
    const segments = result.rows.find((r) => r.label === 'segment')!.tally;
    expect(segments.requests).toBeGreaterThan(0);
    expect(segments.status['2xx']).toBe(segments.requests);
  }, 60_000);

  it('upload burst: every upload initialised, its parts stored and completed', async () => {
    const { result, printed } = await run('upload-burst');
    expect(failuresOf(result), printed).toEqual([]);
    expect(result.notes[0]).toMatch(/^4 of 4 uploads completed/);
    expect(result.rows.find((r) => r.label === 'complete')!.tally.status['2xx']).toBe(4);
  }, 120_000);

  it('rate limits at the seed rates: burst + 1 admitted, then one per 1/r', async () => {
    const { result, printed } = await run('rate-limit');
    expect(failuresOf(result), printed).toEqual([]);
    expect(printed).toMatch(/^api \(20\+1, 1 per 0\.6 s\)/m);
    expect(printed).toMatch(/^auth \(3\+1, 1 per 12\.0 s\)/m);
  }, 120_000);

  it('rate-limit verification fails against a service without limits', async () => {
    const open = await createMusicTestApp({ RATE_LIMITS: 'off', TRUSTED_PROXIES: '127.0.0.1' });
    try {
      await open.app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(open.app.server.address() as AddressInfo).port}`;
      const result = await rateLimits(
        base,
        SEED_SCOPES.filter((s) => s.scope === 'api'),
        1,
      );
      expect(failuresOf(result).join('\n')).toMatch(
        /api: 24 of a volley of 24 admitted, expected burst \+ 1 = 21/,
      );
      expect(formatResult(result)).toMatch(/result: FAIL/);
    } finally {
      await open.close();
    }
  }, 60_000);

  it('soak mode samples RSS and event-loop delay of both services while loading them', async () => {
    const { result, printed } = await run('soak', { LOAD_SECONDS: '3' });
    expect(failuresOf(result), printed).toEqual([]);
    expect(printed).toMatch(
      /^t=\d+s \| eval rss [\d.]+ MB, loop p99 [\d.]+ ms \| music-api rss [\d.]+ MB, loop p99 [\d.]+ ms$/m,
    );
    expect(result.notes.join('\n')).toMatch(/eval: \d+ RSS samples/);
  }, 60_000);

  it('resolves playlist URIs against the playlist URL', () => {
    const uris = playlistUris(
      '#EXTM3U\n#EXT-X-VERSION:7\nr0/index.m3u8?sig=a&expires=1\n\n',
      'http://h/media/hls/v/master.m3u8?sig=x',
    );
    expect(uris).toEqual(['http://h/media/hls/v/r0/index.m3u8?sig=a&expires=1']);
  });

  it('reads RSS and event-loop delay from a metrics text, and nothing from a text without them', () => {
    const text =
      '# HELP x\nprocess_resident_memory_bytes 123456789\nnodejs_eventloop_lag_p99_seconds 0.0125\n';
    expect(parseProcessSample(text)).toEqual({ rssBytes: 123456789, eventLoopDelayP99Seconds: 0.0125 });
    expect(parseProcessSample('process_resident_memory_bytes 1\n')).toBeUndefined();
  });
});
