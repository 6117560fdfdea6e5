/**
 * The music player's sessions and interrupted uploads in a real browser (Debian's Chromium,
 * headless) against the real music-api: sign up, log out, log in and out again on two devices;
 * the server's session cookie, not the page's note in localStorage, says who is logged in; an
 * interrupted upload resumes after a reload sending only the missing parts, and one the server
 * refused is not offered again. On every page checked: no console error, every control named,
 * 375 px fits; screenshots at 375 and 1280 px. No version needs processing here: no worker.
 * An artist's track from upload to edit: test/web-player.test.ts.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type TestBrowser } from './helpers/browser.js';
import { generateAudio } from './helpers/music-worker.js';
import { pictureRoundTrip } from './helpers/profile-picture.js';
import {
  accountSteps,
  checkPage,
  MACHINE_TEXT,
  PASSWORD,
  startPlayerFixture,
  type PlayerFixture,
} from './helpers/player-fixture.js';

// Callbacks run inside the page: its DOM globals, typed loosely here (the Node project has no DOM lib).
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const localStorage: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

const IPHONE_SAFARI =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

describe('music player sessions and interrupted uploads in Chromium', () => {
  let f: PlayerFixture;
  let base: string;
  let browser: TestBrowser;
  let dir: string;
  const { signUp, logIn, expectLoggedIn, logOut } = accountSteps(() => base);

  beforeAll(async () => {
    f = await startPlayerFixture({ worker: false });
    ({ base, browser, dir } = f);
  }, 240_000);

  afterAll(async () => {
    await f?.close();
  });

  it('sign up -> log out -> log in -> log out, on two devices', async () => {
    const who = `two_${Date.now().toString(36)}`;
    const device2 = await launchBrowser();
    try {
      const one = await browser.page();
      const two = await device2.page();
      await signUp(one.page, who);
      await expectLoggedIn(one.page, who);
      await logOut(one.page);
      await logIn(one.page, who);
      await expectLoggedIn(one.page, who);
      await checkPage(one.page, 'player-my-tracks-empty');
      // The second device logs in while the first is still in; each leaves on its own.
      await logIn(two.page, who);
      await expectLoggedIn(two.page, who);
      await logOut(two.page);
      await one.page.reload();
      await expectLoggedIn(one.page, who);
      await logOut(one.page);
      await logIn(two.page, who);
      await expectLoggedIn(two.page, who);
      await logOut(two.page);
      await one.page.goto(`${base}/login`);
      await checkPage(one.page, 'player-login');
      expect(one.errors).toEqual([]);
      expect(two.errors).toEqual([]);
      await one.page.close();
    } finally {
      await device2.close();
    }
  }, 120_000);

  it('the server, not localStorage, says who is logged in', async () => {
    const who = `cookie_${Date.now().toString(36)}`;
    const device = await launchBrowser();
    try {
      const one = await device.page();
      await signUp(one.page, who);
      // The cookie stays, the page's note of who is logged in is gone: a new page still shows the user.
      await one.page.evaluate(() => localStorage.clear());
      const two = await device.page();
      await two.page.goto(`${base}/`);
      await expectLoggedIn(two.page, who);
      await two.page.goto(`${base}/me/tracks`);
      await two.page.locator('[data-part="my-tracks"][data-state="ready"]').waitFor();
      // The reverse: a note of a user but no cookie shows "Log in".
      await device.context.clearCookies();
      const three = await device.page();
      await three.page.goto(`${base}/`);
      await three.page.getByRole('link', { name: 'Log in' }).waitFor();
      expect(await three.page.getByRole('link', { name: who, exact: true }).count()).toBe(0);
      expect([...one.errors, ...two.errors, ...three.errors]).toEqual([]);
    } finally {
      await device.close();
    }
  }, 120_000);

  it('the sessions page names each device; a session ended from another device is told so, with a way to log in', async () => {
    const who = `dev_${Date.now().toString(36)}`;
    const phone = await launchBrowser();
    try {
      const desk = await browser.page();
      await signUp(desk.page, who);
      const mobile = await phone.page(375);
      await mobile.page.setExtraHTTPHeaders({ 'user-agent': IPHONE_SAFARI });
      await logIn(mobile.page, who);
      await mobile.page.getByRole('button', { name: 'Menu' }).click();
      await mobile.page.getByRole('link', { name: 'Account' }).click();
      const rows = mobile.page.locator('li.session');
      await rows.nth(1).waitFor();
      const mine = mobile.page.locator('li.session[data-current="true"]');
      expect(await mine.locator('.device').innerText()).toBe('Safari on iOS');
      expect(await mine.innerText()).toMatch(/This device\s+Last used now · signed in /);
      const other = mobile.page.locator('li.session[data-current="false"]');
      expect(await other.locator('.device').innerText()).toBe('Headless Chrome on Linux');
      expect(await other.innerText()).toMatch(/Last used (just now|\d+ minutes? ago) · signed in /);
      // Words, not an address hash.
      expect(await mobile.page.locator('ul.sessions').innerText()).not.toMatch(/[0-9a-f]{12}|address/i);
      await checkPage(mobile.page, 'player-sessions');

      const tab = await browser.page();
      await tab.page.goto(`${base}/`);
      await tab.page.getByRole('link', { name: who, exact: true }).waitFor();
      // The phone ends the desktop's session; the desktop's next request says so, with a way in.
      await mobile.page.getByRole('button', { name: 'End the session of Headless Chrome on Linux' }).click();
      await mobile.page.locator('li.session').nth(1).waitFor({ state: 'detached' });
      expect(await mobile.page.locator('li.session .device').allInnerTexts()).toEqual(['Safari on iOS']);
      await desk.page.getByRole('link', { name: 'My tracks' }).click();
      const ended = desk.page.locator('.session-ended');
      await ended.waitFor();
      expect(await ended.innerText()).toMatch(/^Your session has ended\. Log in again\./);
      expect(await desk.page.locator('body').innerText()).not.toMatch(/Authorization|Bearer|access token/);
      await checkPage(desk.page, 'player-session-ended');
      // A second tab of that device, open before (its cookie since dropped by the first tab's 401),
      // reads the same words on its next page, never the API's.
      await tab.page.getByRole('link', { name: 'Account' }).click();
      await tab.page.locator('.session-ended').waitFor();
      expect(await tab.page.locator('body').innerText()).not.toMatch(/Authorization|Bearer|access token/);
      await tab.page.locator('.session-ended').getByRole('link', { name: 'Log in' }).click();
      await tab.page.waitForURL(`${base}/login`);
      await ended.getByRole('link', { name: 'Log in' }).click();
      await desk.page.waitForURL(`${base}/login`);
      // The 401s of the ended session are the answers asked for.
      for (const errors of [desk.errors, tab.errors, mobile.errors])
        expect(errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
    } finally {
      await phone.close();
    }
  }, 120_000);

  it('sign-up says what comes next; a device whose session ended is told so in words, with a way to log in', async () => {
    const { page, errors } = await browser.page(375);
    const who = `new_${Date.now().toString(36)}`;
    await page.goto(`${base}/signup`);
    await page.getByLabel('Handle (3–30 letters, digits or _)').fill(who);
    await page.getByLabel('Email').fill(`${who}@example.org`);
    await page.getByLabel('Password (at least 10 characters)').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create the account' }).click();
    const welcome = page.getByTestId('welcome');
    await welcome.waitFor();
    // This server sends no mail (no SMTP): the welcome does not send one to look for it.
    await welcome.getByText('Your account is ready.').waitFor();
    expect(await welcome.innerText()).not.toContain('Check your mail');
    await welcome.getByRole('link', { name: 'upload your first track' }).waitFor();
    // The artist's short bio, edited on their own page.
    await page.getByLabel('Short bio').fill('Sings about trains.\nLives by the sea.');
    await page.getByRole('button', { name: 'Save the bio' }).click();
    await page.getByTestId('bio').waitFor();
    expect(await page.getByTestId('bio').innerText()).toBe('Sings about trains.\nLives by the sea.');
    await pictureRoundTrip(page, `Picture of ${who}`);
    await checkPage(page, 'listening-profile-own');
    await page.getByRole('link', { name: 'upload your first track' }).waitFor();
    // No empty progress bar before a file is chosen.
    await page.getByRole('link', { name: 'upload your first track' }).click();
    await page.getByLabel('Audio file').waitFor();
    expect(await page.locator('progress').isVisible()).toBe(false);
    await checkPage(page, 'listening-upload-empty');

    // The session ends elsewhere (its cookie is gone); the next request here says so.
    await browser.context.clearCookies();
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('link', { name: 'My tracks' }).click();
    const ended = page.locator('.session-ended');
    await ended.waitFor();
    expect(await ended.innerText()).toMatch(/^Your session has ended\. Log in again\./);
    const text = await page.locator('body').innerText();
    expect(text).not.toMatch(/Authorization|Bearer|access token/);
    await checkPage(page, 'listening-session-ended');
    await ended.getByRole('link', { name: 'Log in', exact: true }).click();
    await page.waitForURL(`${base}/login`);
    // The 401 of the ended session and the 415 of the refused picture are the answers asked for.
    expect(errors.filter((e) => !/status of (401|415)/.test(e))).toEqual([]);
    await page.close();
  }, 60_000);
  it('an interrupted upload resumes after a reload, sending only the missing parts; a refused one is not offered again', async () => {
    // 200 s of 16-bit stereo WAV is 35.3 MB: three parts at the default 16 MiB.
    const file = join(dir, 'sine-200s.wav');
    await generateAudio(file, { seconds: 200, codec: 'pcm_s16le' });
    const { page, errors } = await browser.page();
    // Chromium stalls intercepted uploads (page.route below) while a websocket is open: this page polls instead.
    await page.addInitScript(() => Reflect.deleteProperty(globalThis, 'WebSocket'));
    const who = `up_${Date.now().toString(36)}`;
    await signUp(page, who);
    await page.goto(`${base}/upload`);
    const puts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PUT') puts.push(new URL(r.url()).pathname.split('/').pop()!);
    });
    // The connection drops while part 2 is sent.
    await page.route('**/parts/2', (route) => route.abort('connectionreset'));
    await page.getByLabel('Audio file').setInputFiles(file);
    await page.getByLabel('Title').fill('Resumed');
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'the connection failed while sending a part' }).waitFor();
    await page.unroute('**/parts/2');

    await page.reload();
    await page.getByTestId('resume-notice').waitFor();
    expect(await page.getByTestId('resume-notice').textContent()).toMatch(
      /An upload of sine-200s\.wav was interrupted/,
    );
    expect(await page.getByLabel('Title').inputValue()).toBe('Resumed');
    const before = puts.length;
    await page.getByLabel('Audio file').setInputFiles(file);
    await page.getByRole('button', { name: 'Resume the upload' }).click();
    await page.waitForURL(/\/tracks\/[0-9a-f-]{36}$/, { timeout: 60_000 });
    // Parts 1 and 3 were stored before the drop; after the reload only part 2 is sent.
    expect(puts.slice(0, before).sort()).toEqual(['1', '2', '3']);
    expect(puts.slice(before)).toEqual(['2']);
    await page.getByTestId('processing').waitFor();

    // A file the server refuses (not audio): said in words, and never offered for resuming.
    const fake = join(dir, 'not-audio.mp3');
    await writeFile(fake, 'This is a text file with an .mp3 name.\n'.repeat(200));
    await page.goto(`${base}/upload`);
    await page.getByLabel('Audio file').setInputFiles(fake);
    await page.getByRole('button', { name: 'Upload', exact: true }).click();
    const refusal = page.getByRole('alert').filter({ hasText: /could not be read as audio/ });
    await refusal.waitFor();
    expect(await refusal.textContent()).not.toMatch(MACHINE_TEXT);
    await page.reload();
    await page.getByRole('button', { name: 'Upload', exact: true }).waitFor();
    expect(await page.getByTestId('resume-notice').count()).toBe(0);
    expect(
      errors.filter((e) => !/ERR_CONNECTION_RESET|Failed to load resource|status of 422/.test(e)),
    ).toEqual([]);
    await page.close();
  }, 300_000);
});
