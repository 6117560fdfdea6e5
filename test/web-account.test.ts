/**
 * The player's account pages in a real browser (Chromium) with real mail: the confirmation link
 * of sign-up opens /verify; "Forgot password?" -> the mailed link -> a new password -> logged in
 * with it (the old one refused); /me/sessions lists this session and ends another; an address not
 * confirmed yet uploads as Unlisted (Public waits, said with the way to confirm) and a track made
 * public before is refused in a person's words. The mail goes through the music-worker process to
 * an SMTP server started here.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMusicTestApp, type MusicTestApp } from './helpers/music-app.js';
import {
  generateAudio,
  startWorkerProcess,
  stopWorkerProcess,
  type WorkerProcess,
} from './helpers/music-worker.js';
import {
  buildWebApp,
  launchBrowser,
  screenshots,
  unnamedControls,
  type TestBrowser,
} from './helpers/browser.js';
import { linkIn, startSmtpSink, type SmtpSink } from './helpers/smtp-sink.js';
import { freePort } from './helpers/free-port.js';

const PASSWORD = 'correct horse battery staple 42';
const NEW_PASSWORD = 'a brand new passphrase 7';

describe('account pages in Chromium', () => {
  let t: MusicTestApp;
  let sink: SmtpSink;
  let worker: WorkerProcess;
  let browser: TestBrowser;
  let base: string;
  let cleanup: () => Promise<void>;
  const handle = `acc_${Date.now().toString(36)}`;
  const email = `${handle}@example.org`;

  beforeAll(async () => {
    const built = await buildWebApp('player');
    cleanup = () => built.cleanup();
    sink = await startSmtpSink();
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const env = { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(sink.port), PUBLIC_URL: base };
    t = await createMusicTestApp({ RATE_LIMITS: 'off', ...env }, { webRoot: built.root });
    await t.app.listen({ port, host: '127.0.0.1' });
    worker = await startWorkerProcess(t.config, env);
    browser = await launchBrowser();
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    if (worker) await stopWorkerProcess(worker);
    await t?.close();
    await sink?.close();
    await cleanup?.();
  });

  it('verify, forgot password, reset, log in with the new password, sessions', async () => {
    const { page, errors } = await browser.page();
    await page.goto(`${base}/signup`);
    await page.getByLabel('Handle (3–30 letters, digits or _)').fill(handle);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password (at least 10 characters)').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create the account' }).click();
    await page.waitForURL(`${base}/users/${handle}`);
    // A server that sends mail: the welcome says to check it.
    await page.getByTestId('welcome').getByText(`Check your mail: a link sent to ${email}`).waitFor();

    // The confirmation link of sign-up, opened as mailed.
    const welcome = await sink.next(email);
    await page.goto(linkIn(welcome).url.href);
    await page.getByRole('heading', { name: 'Address confirmed' }).waitFor();
    expect(page.url()).toBe(`${base}/verify`);

    // Sessions: this one, and one from another device that this page ends.
    const phone = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      headers: { 'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) Safari/604.1' },
      payload: { login: handle, password: PASSWORD },
    });
    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
    await page.getByText(`${email} (verified)`).waitFor();
    const other = page.locator('li.session', { hasText: 'Safari on iOS' });
    await expect(page.locator('li.session', { hasText: 'This device' }).count()).resolves.toBe(1);
    expect(await unnamedControls(page)).toEqual([]);
    await screenshots(page, 'account-sessions');
    await other.getByRole('button', { name: 'End the session of Safari on iOS' }).click();
    await other.waitFor({ state: 'detached' });
    const phoneMe = await t.app.inject({
      method: 'GET',
      url: '/api/v1/me',
      headers: { authorization: `Bearer ${phone.json().token}` },
    });
    expect(phoneMe.statusCode).toBe(401);

    // Forgot password, from the login page, in another tab of a signed-out browser.
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.goto(`${base}/login`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL(`${base}/forgot-password`);
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Send me a link' }).click();
    await page.getByRole('heading', { name: 'Check your mail' }).waitFor();

    const mail = await sink.next(email);
    await page.goto(linkIn(mail).url.href);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await page.getByLabel('New password (at least 10 characters)').fill('password123');
    await page.getByRole('button', { name: 'Set the password' }).click();
    await page.locator('#f-password-error', { hasText: 'most common passwords' }).waitFor();
    await page.getByLabel('New password (at least 10 characters)').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Set the password' }).click();
    await page.getByRole('heading', { name: 'Password set' }).waitFor();
    expect(page.url()).toBe(`${base}/reset-password`);

    await page.getByRole('link', { name: 'Log in' }).first().click();
    await page.waitForURL(`${base}/login`);
    await page.getByLabel('Handle or email').fill(handle);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.getByText('The login or the password is wrong.').waitFor();
    await page.getByLabel('Password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL(`${base}/users/${handle}`);
    await page.getByRole('link', { name: handle }).waitFor();

    const told = await sink.next(email);
    expect(told.parsed.subject).toMatch(/password was changed/);
    expect(errors.filter((e) => !/status of (401|400|410)/.test(e))).toEqual([]);
  });

  it('an address not confirmed yet: Upload offers Unlisted and says why Public waits; making a track public is refused in words', async () => {
    const who = `unv_${Date.now().toString(36)}`;
    const address = `${who}@example.org`;
    const dir = await mkdtemp(join(tmpdir(), 'unverified-'));
    const file = join(dir, 'First Song.flac');
    await generateAudio(file, { seconds: 4 });
    const { page, errors } = await browser.page(375);
    try {
      await page.goto(`${base}/signup`);
      await page.getByLabel('Handle (3–30 letters, digits or _)').fill(who);
      await page.getByLabel('Email').fill(address);
      await page.getByLabel('Password (at least 10 characters)').fill(PASSWORD);
      await page.getByRole('button', { name: 'Create the account' }).click();
      await page.waitForURL(`${base}/users/${who}`);

      // Before: Public was chosen, the whole file sent, then the track refused.
      await page.getByRole('link', { name: 'upload your first track' }).click();
      const note = page.getByTestId('visibility-note');
      await note.getByRole('link', { name: 'account page' }).waitFor();
      expect(await note.innerText()).toBe(
        'Public opens once you confirm your address: open the link we mailed you, or ask for a new one on your account page.',
      );
      const visibility = page.getByLabel('Who can listen');
      expect(await visibility.inputValue()).toBe('unlisted');
      expect(await page.locator('option[value="public"]').isDisabled()).toBe(true);
      expect(await unnamedControls(page)).toEqual([]);
      await screenshots(page, 'account-upload-unconfirmed');
      await page.getByLabel('Audio file').setInputFiles(file);
      await page.getByRole('button', { name: 'Upload' }).click();
      await page.waitForURL(/\/tracks\/[0-9a-f-]{36}$/);

      // The owner's form still offers Public: the refusal is a sentence, no API route in it.
      await page.getByLabel('Who can listen').selectOption('public');
      await page.getByRole('button', { name: 'Save the changes' }).click();
      const refusal = page.getByText(/^Verify your email address before publishing a track publicly/);
      await refusal.waitFor();
      expect(await refusal.innerText()).toBe(
        'Verify your email address before publishing a track publicly: open the link we mailed you, or ask for a new one with "Resend" on your account page. Until then you can listen, upload and keep tracks private or unlisted.',
      );

      // Confirmed: the upload form offers Public again, chosen by default.
      const mail = await sink.next(address);
      await page.goto(linkIn(mail).url.href);
      await page.getByRole('heading', { name: 'Address confirmed' }).waitFor();
      const asked = page.waitForResponse((r) => r.url().endsWith('/api/v1/me/verification'));
      await page.goto(`${base}/upload`);
      await asked;
      expect(await page.getByLabel('Who can listen').inputValue()).toBe('public');
      expect(await page.locator('option[value="public"]').isDisabled()).toBe(false);
      expect(await page.getByTestId('visibility-note').isHidden()).toBe(true);
      expect(errors.filter((e) => !/status of 403/.test(e))).toEqual([]);
    } finally {
      await page.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
