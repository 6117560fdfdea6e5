/**
 * The music player in Chromium as test/web-player*.test.ts use it: the player built, a real
 * music-api listening (rate limits off), a real music-worker process when the file needs
 * processing, one browser and a folder for generated audio; and the page steps those files share
 * (sign up, log in and out, the checks every page gets).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import {
  buildWebApp,
  horizontalOverflow,
  launchBrowser,
  listen,
  screenshots,
  unnamedControls,
  type TestBrowser,
} from './browser.js';
import { createMusicTestApp, type MusicTestApp } from './music-app.js';
import { startWorkerProcess, stopWorkerProcess, type WorkerProcess } from './music-worker.js';

export const PASSWORD = 'correct horse battery staple 42';
/** What no message a person reads may contain: a regular expression, ajv's or ffprobe's wording. */
export const MACHINE_TEXT =
  /\^|\$|\[A-Z|\\u|pattern|must match|equal to constant|see errors|0x[0-9a-f]{6}|undefined/;

export interface PlayerFixture {
  t: MusicTestApp;
  /** http://127.0.0.1:<port> of the listening app. */
  base: string;
  /** The built player, for another app instance serving the same pages. */
  webRoot: string;
  browser: TestBrowser;
  /** A temporary folder for the audio files a test generates. */
  dir: string;
  close(): Promise<void>;
}

/** Starts everything; `worker: false` when no version needs to be processed (uploads only). */
export async function startPlayerFixture(options: { worker: boolean }): Promise<PlayerFixture> {
  const stops: (() => Promise<unknown>)[] = [];
  const close = async (): Promise<void> => {
    for (const stop of stops.reverse()) await stop();
  };
  try {
    const built = await buildWebApp('player');
    stops.push(() => built.cleanup());
    const dir = await mkdtemp(join(tmpdir(), 'player-audio-'));
    stops.push(() => rm(dir, { recursive: true, force: true }));
    const t = await createMusicTestApp({ RATE_LIMITS: 'off' }, { webRoot: built.root });
    stops.push(() => t.close());
    const base = await listen(t.app);
    if (options.worker) {
      const worker: WorkerProcess = await startWorkerProcess(t.config);
      stops.push(() => stopWorkerProcess(worker));
    }
    const browser = await launchBrowser();
    stops.push(() => browser.close());
    return { t, base, webRoot: built.root, browser, dir, close };
  } catch (err) {
    await close();
    throw err;
  }
}

/** The checks every page gets: every control named, nothing sticks out at 375 px, screenshots. */
export async function checkPage(page: Page, name: string): Promise<void> {
  expect(await unnamedControls(page), name).toEqual([]);
  const size = page.viewportSize();
  await page.setViewportSize({ width: 375, height: 800 });
  expect(await horizontalOverflow(page), name).toEqual([]);
  if (size) await page.setViewportSize(size);
  await screenshots(page, name);
}

/** Sign-up, log-in and log-out as a person does them, on the app at `base()` (known once started). */
export function accountSteps(base: () => string) {
  async function signUp(page: Page, who: string): Promise<void> {
    await page.goto(`${base()}/signup`);
    await page.getByLabel('Handle (3–30 letters, digits or _)').fill(who);
    await page.getByLabel('Email').fill(`${who}@example.org`);
    await page.getByLabel('Display name (optional)').fill(`DJ ${who}`);
    await page.getByLabel('Password (at least 10 characters)').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create the account' }).click();
    await page.waitForURL(`${base()}/users/${who}`);
  }

  async function logIn(page: Page, who: string, at = base()): Promise<void> {
    await page.goto(`${at}/login`);
    await page.getByLabel('Handle or email').fill(who);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL(`${at}/users/${who}`);
  }

  /** Logged in as `who`: the menu names them and My tracks reads their tracks with the session. */
  async function expectLoggedIn(page: Page, who: string): Promise<void> {
    await page.getByRole('link', { name: who, exact: true }).waitFor();
    await page.getByRole('link', { name: 'My tracks' }).click();
    await page.locator('[data-part="my-tracks"][data-state="ready"]').waitFor();
  }

  async function logOut(page: Page): Promise<void> {
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(`${base()}/`);
    await page.getByRole('link', { name: 'Log in' }).waitFor();
    // The server forgot the session too: My tracks asks to log in.
    await page.goto(`${base()}/me/tracks`);
    await page.getByText('to see your tracks.').waitFor();
  }

  return { signUp, logIn, expectLoggedIn, logOut };
}
