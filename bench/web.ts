/**
 * Web front-ends in Debian's Chromium (headless, cold cache per load): Largest Contentful Paint
 * and bytes transferred, read from the browser's own performance entries, for
 *
 * 1. bare: a one-heading HTML page from a bare fastify (the baseline);
 * 2. workbench: eval's /tools/gate with the gate example run (its certificate drawn);
 * 3. track page: music-api's /tracks/<id> of a ready track (HLS, waveform) until the waveform shows.
 *
 * LCP is reported as a ratio to the bare page measured in the same run; JavaScript is reported
 * as gzip bytes of the built files each page loads (target: under 200 KB per page). Needs
 * PostgreSQL and Redis (makes and drops its own database) and ffmpeg. Writes
 * bench/results/web.md.
 *
 *   npx tsx bench/web.ts
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { chromium, type Browser, type Page } from 'playwright-core';
import { buildEvalApp } from '../src/eval/app.js';
import { loadEvalConfig } from '../src/eval/config.js';
import { CHROMIUM, CHROMIUM_ARGS } from '../test/helpers/browser.js';
import { publishTestHls } from '../test/helpers/music-app.js';
import { listenLocal, withBenchMusic, writeBenchResult } from './lib/music-app.js';
import { seedReadyTrack } from './lib/music-seed.js';

const ROOT = join(import.meta.dirname, '..');
const ROUNDS = Number(process.env.BENCH_WEB_ROUNDS ?? 5);
const JS_TARGET_BYTES = 200 * 1024;
const run = promisify(execFile);

// Page callbacks run in Chromium; the Node project has no DOM lib.
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
declare const performance: any;
declare const PerformanceObserver: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

interface PerfEntry {
  name: string;
  startTime: number;
  transferSize: number;
}
interface PerfList {
  getEntries(): PerfEntry[];
}

interface Load {
  lcpMs: number;
  transferred: number;
  jsFiles: string[];
}

/** One cold load (new context: empty cache); `ready` runs until the page shows its content. */
async function load(browser: Browser, url: string, ready: (page: Page) => Promise<void>): Promise<Load> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(url);
  await ready(page);
  const figures = await page.evaluate(
    () =>
      new Promise<Load>((resolve) => {
        new PerformanceObserver((list: PerfList) => {
          const entries = list.getEntries();
          const lcp = entries[entries.length - 1]!.startTime;
          const all = [
            ...performance.getEntriesByType('navigation'),
            ...performance.getEntriesByType('resource'),
          ];
          resolve({
            lcpMs: lcp,
            transferred: all.reduce((sum: number, e: PerfEntry) => sum + e.transferSize, 0),
            jsFiles: all
              .map((e: PerfEntry) => new URL(e.name).pathname)
              .filter((p: string) => p.endsWith('.js')),
          });
        }).observe({ type: 'largest-contentful-paint', buffered: true });
      }),
  );
  await context.close();
  return figures;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function gzipBytes(root: string, files: string[]): Promise<number> {
  let total = 0;
  for (const f of new Set(files)) total += gzipSync(await readFile(join(root, f))).length;
  return total;
}

async function main(): Promise<void> {
  const out = await mkdtemp(join(tmpdir(), 'web-bench-'));
  const dataDir = await mkdtemp(join(tmpdir(), 'web-bench-data-'));
  await run(process.execPath, ['scripts/build-web.mjs', '--out', out], { cwd: ROOT });
  const bare = Fastify({ logger: false });
  bare.get('/', (_request, reply) =>
    reply.type('text/html').send('<!doctype html><title>bare</title><h1>Verifier workbench</h1>'),
  );
  const evalApp = await buildEvalApp(
    loadEvalConfig({ LOG_LEVEL: 'silent', RATE_LIMITS: 'off', DATA_DIR: dataDir, EVAL_POOL_SIZE: '1' }),
    {
      webRoot: join(out, 'workbench'),
    },
  );
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  try {
    await withBenchMusic(
      dataDir,
      async ({ connections, app: music }) => {
        // A ready track: real HLS from ffmpeg (9 s), an 8-bit waveform, a version row pointing at them.
        const versionKey = await publishTestHls(connections.stores.transcodes);
        const peaks = Array.from({ length: 800 }, (_, i) => Math.round(60 * Math.sin(i / 9)));
        const waveform = {
          version: 2,
          channels: 1,
          sample_rate: 44100,
          samples_per_pixel: 512,
          bits: 8,
          length: 400,
          data: peaks.flatMap((p) => [-Math.abs(p), Math.abs(p)]).slice(0, 800),
        };
        await connections.stores.waveforms.put(
          `${versionKey}/waveform.json`,
          Buffer.from(JSON.stringify(waveform)),
        );
        const user = await connections.prisma.user.create({
          data: { handle: 'bench_web', email: 'web@example.org', passwordHash: 'x', displayName: 'Bench' },
        });
        const trackId = await seedReadyTrack(connections, user.id, 'Bench sine', {
          hlsKey: versionKey,
          waveformKey: `${versionKey}/waveform.json`,
          durationMs: 9000,
          replayGain: -3,
        });

        const urls = {
          bare: `${await listenLocal(bare)}/`,
          workbench: `${await listenLocal(evalApp)}/tools/gate`,
          track: `${await listenLocal(music)}/tracks/${trackId}`,
        };
        const runs: Record<'bare' | 'workbench' | 'track', Load[]> = { bare: [], workbench: [], track: [] };
        for (let round = 0; round < ROUNDS; round++) {
          runs.bare.push(await load(browser, urls.bare, (p) => p.locator('h1').waitFor()));
          runs.workbench.push(
            await load(browser, urls.workbench, async (p) => {
              await p.waitForFunction(() => document.querySelector('#request')?.value.startsWith('{'));
              await p.getByRole('button', { name: 'Run', exact: true }).click();
              await p.locator('figure.domain-bars').first().waitFor();
            }),
          );
          runs.track.push(await load(browser, urls.track, (p) => p.locator('.waveform canvas').waitFor()));
        }
        const bareLcp = median(runs.bare.map((r) => r.lcpMs));
        const row = async (name: 'workbench' | 'track', app: 'workbench' | 'player'): Promise<string> => {
          const lcp = median(runs[name].map((r) => r.lcpMs));
          const js = await gzipBytes(join(out, app), runs[name][0]!.jsFiles);
          return `| ${name === 'track' ? 'track page' : 'workbench (gate, run)'} | ${lcp.toFixed(0)} | ${(lcp / bareLcp).toFixed(2)} | ${(median(runs[name].map((r) => r.transferred)) / 1024).toFixed(1)} | ${(js / 1024).toFixed(1)} | ${js < JS_TARGET_BYTES ? 'met' : 'NOT met'} |`;
        };
        const lines = [
          '## Web front-ends (bench/web.ts)',
          '',
          `Debian Chromium headless, cold cache per load, median of ${ROUNDS} loads. LCP from \`largest-contentful-paint\` entries; transferred = navigation + resource \`transferSize\` (compressed, media segments included); JS = gzip of the built scripts the page loaded.`,
          '',
          '| page | LCP ms | LCP / bare page | transferred KB | JS gzip KB | < 200 KB JS |',
          '| --- | --- | --- | --- | --- | --- |',
          `| bare HTML page (baseline) | ${bareLcp.toFixed(0)} | 1.00 | ${(median(runs.bare.map((r) => r.transferred)) / 1024).toFixed(1)} | 0 | met |`,
          await row('workbench', 'workbench'),
          await row('track', 'player'),
          '',
          `Track page engine in this Chromium: ${runs.track[0]!.jsFiles.some((f) => f.includes('hls')) ? 'hls.js (loaded on demand)' : 'native HLS (hls.js not loaded)'}; every player script together (the case of a browser without native HLS, hls.js light included): ${(
            (await gzipBytes(
              join(out, 'player'),
              (await readdir(join(out, 'player', 'assets')))
                .filter((f) => f.endsWith('.js'))
                .map((f) => `assets/${f}`),
            )) / 1024
          ).toFixed(1)} KB gzip.`,
          '',
        ];
        await writeBenchResult('web', lines.join('\n') + '\n');
      },
      { app: { webRoot: join(out, 'player') } },
    );
  } finally {
    await browser.close();
    await evalApp.close();
    await bare.close();
    await rm(out, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
