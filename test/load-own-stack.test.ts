/**
 * `make load` on a fresh machine: with no EVAL_URL or MUSIC_URL it starts a stack of its own
 * (from dist/, with its own database, prefixes and transcoded track), passes, and leaves nothing
 * behind; against a stack someone else runs it refuses at once, in one line naming what to set,
 * when the scenarios could not pass there.
 */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { preflight } from '../load-tests/preflight.js';
import { main } from '../load-tests/run.js';
import { makeEvalApp } from './helpers/eval-app.js';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import { testDatabaseUrl } from './helpers/music-env.js';
import { databaseUrlOf, withPostgres } from './helpers/postgres.js';

const url = (app: FastifyInstance) => `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;

async function loadDatabases(): Promise<string[]> {
  const rows = await withPostgres(databaseUrlOf(testDatabaseUrl(), 'postgres'), (c) =>
    c.query<{ datname: string }>("SELECT datname FROM pg_database WHERE datname LIKE 'load\\_%'"),
  );
  return rows.rows.map((r) => r.datname);
}

describe('make load without a target: its own stack', () => {
  it('starts, makes its own track, passes browse-stream and upload-burst, and cleans up', async () => {
    const before = await loadDatabases();
    let printed = '';
    const code = await main(
      {
        LOAD_SCENARIOS: 'eval-mixed,browse-stream,upload-burst',
        LOAD_SECONDS: '1',
        LOAD_CONNECTIONS: '2',
        LOAD_UPLOADS: '2',
      },
      (t) => (printed += t),
    );
    expect(code, printed).toBe(0);
    expect(printed).toMatch(/^load: own stack up, track [0-9a-f-]{36} ready$/m);
    expect(printed.match(/result: PASS/g)).toHaveLength(3);
    expect(await loadDatabases()).toEqual(before);
  }, 300_000);
});

describe('make load against a stack someone else runs', () => {
  let evalApp: FastifyInstance;
  let untrusting: MusicTestApp;
  let unlimited: MusicTestApp;

  beforeAll(async () => {
    evalApp = await makeEvalApp();
    untrusting = await createMusicTestApp({ RATE_LIMITS: 'on' });
    unlimited = await createMusicTestApp({ RATE_LIMITS: 'off', TRUSTED_PROXIES: '127.0.0.1' });
    for (const app of [evalApp, untrusting.app, unlimited.app])
      await app.listen({ port: 0, host: '127.0.0.1' });
  }, 120_000);
  afterAll(async () => {
    await evalApp?.close();
    await untrusting?.close();
    await unlimited?.close();
  });

  const oneLine = (text: string | undefined) => {
    expect(text).toBeDefined();
    expect(text).not.toContain('\n');
    return text!;
  };

  it('browse-stream without tracks: names MUSIC_TRACK_IDS', async () => {
    const refusal = await preflight({ EVAL_URL: url(evalApp), MUSIC_URL: url(unlimited.app) }, [
      'browse-stream',
    ]);
    expect(oneLine(refusal)).toMatch(/set MUSIC_TRACK_IDS .*unset EVAL_URL and MUSIC_URL/);
  });

  it('a music API that ignores X-Forwarded-For: names TRUSTED_PROXIES', async () => {
    const refusal = await preflight({ EVAL_URL: url(evalApp), MUSIC_URL: url(untrusting.app) }, [
      'upload-burst',
    ]);
    expect(oneLine(refusal)).toMatch(/ignores X-Forwarded-For .*TRUSTED_PROXIES=127\.0\.0\.1/);
  });

  it('the rate-limit scenario against a music API without limits: names RATE_LIMITS=on', async () => {
    const refusal = await preflight({ EVAL_URL: url(evalApp), MUSIC_URL: url(unlimited.app) }, [
      'rate-limit',
    ]);
    expect(oneLine(refusal)).toMatch(/RATE_LIMITS=on/);
  });

  it('a stack with the settings the scenarios need: no refusal', async () => {
    expect(
      await preflight({ EVAL_URL: url(evalApp), MUSIC_URL: url(unlimited.app) }, [
        'upload-burst',
        'eval-mixed',
      ]),
    ).toBeUndefined();
  });

  it('main refuses before loading anything', async () => {
    await expect(
      main(
        { EVAL_URL: url(evalApp), MUSIC_URL: url(untrusting.app), LOAD_SCENARIOS: 'upload-burst' },
        () => undefined,
      ),
    ).rejects.toThrow(/TRUSTED_PROXIES/);
  });
});
