/**
 * Browser tests: Debian's Chromium driven by playwright-core, headless, with a fresh profile and
 * no background traffic; the front-ends built once per test file into a temporary folder; console
 * errors collected per page; screenshots into the git-ignored test-artifacts/.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const ARTIFACTS = join(ROOT, 'test-artifacts', 'web');

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Media plays without a user gesture in tests (a person clicks Play).
  '--autoplay-policy=no-user-gesture-required',
];

// Callbacks run inside the page: its DOM globals, typed loosely here (the Node project has no DOM lib).
/* eslint-disable @typescript-eslint/no-explicit-any */
declare const document: any;
/* eslint-enable @typescript-eslint/no-explicit-any */

/** Builds one front-end (type-checked, bundled by Vite) into a fresh folder; returns dist/web/<app>. */
export async function buildWebApp(
  app: 'workbench' | 'player',
): Promise<{ root: string; cleanup(): Promise<void> }> {
  const out = await mkdtemp(join(tmpdir(), `web-${app}-`));
  await run(process.execPath, ['scripts/build-web.mjs', '--app', app, '--out', out], { cwd: ROOT });
  return { root: join(out, app), cleanup: () => rm(out, { recursive: true, force: true }) };
}

export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return `http://127.0.0.1:${address.port}`;
}

export interface TestBrowser {
  context: BrowserContext;
  /** A new page whose console errors and uncaught exceptions are collected. */
  page(width?: number): Promise<{ page: Page; errors: string[] }>;
  close(): Promise<void>;
}

/**
 * Test files share one database but each app has its own media store, so a list may show another
 * file's track whose cover is not in this one's store: a 404 no single deployment produces.
 */
function foreignCover(text: string, url: string): boolean {
  return /status of 404/.test(text) && url.includes('/images/');
}

export async function launchBrowser(): Promise<TestBrowser> {
  const profile = await mkdtemp(join(tmpdir(), 'chromium-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
    acceptDownloads: true,
  });
  return {
    context,
    async page(width = 1280) {
      const page = await context.newPage();
      await page.setViewportSize({ width, height: 900 });
      const errors: string[] = [];
      page.on('console', (message) => {
        // The resource's address too: a failed load's text alone does not say what failed.
        const at = message.location().url;
        if (message.type() !== 'error' || foreignCover(message.text(), at)) return;
        errors.push(`console: ${message.text()}${at ? ` @ ${at}` : ''}`);
      });
      page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
      return { page, errors };
    },
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** Full-page screenshots at a phone's width (375 px) and a desktop's (1280 px). */
export async function screenshots(page: Page, name: string): Promise<void> {
  await mkdir(ARTIFACTS, { recursive: true });
  const original = page.viewportSize() ?? { width: 1280, height: 900 };
  for (const width of [375, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: join(ARTIFACTS, `${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize(original);
}

const INTERACTIVE_ROLES = new Set([
  'button',
  'link',
  'textbox',
  'combobox',
  'checkbox',
  'radio',
  'slider',
  'searchbox',
  'spinbutton',
  'switch',
  'tab',
  'menuitem',
  'treeitem',
]);

interface AxNode {
  ignored: boolean;
  role?: { value?: string };
  name?: { value?: string };
  backendDOMNodeId?: number;
}

/** Controls without an accessible name, as Chromium's accessibility tree computes them. */
export async function unnamedControls(page: Page): Promise<string[]> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { nodes } = (await cdp.send('Accessibility.getFullAXTree')) as { nodes: AxNode[] };
    return nodes
      .filter(
        (n) => !n.ignored && INTERACTIVE_ROLES.has(n.role?.value ?? '') && !(n.name?.value ?? '').trim(),
      )
      .map((n) => `${n.role?.value} (backend node ${n.backendDOMNodeId})`);
  } finally {
    await cdp.detach();
  }
}

/**
 * Elements that stick out past the viewport's right edge (each forces sideways scrolling of the
 * whole page); empty when the layout fits. Children of scrolling regions are not counted.
 */
export async function horizontalOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= width) return [];
    const out: string[] = [];
    for (const el of document.body.querySelectorAll('*')) {
      if (el.closest('.table-scroll, .timeline-scroll, .diff-scroll')) continue;
      const right = el.getBoundingClientRect().right;
      if (right > width + 1)
        out.push(`${el.tagName.toLowerCase()}.${el.className} right=${Math.round(right)}`);
    }
    return out.slice(0, 10);
  });
}
