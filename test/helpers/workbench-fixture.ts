/**
 * The workbench in Chromium as test/web-workbench.test.ts and test/web-open-bench-log.test.ts use
 * it: the pages built, an eval app serving them and listening, one browser.
 */
import type { FastifyInstance } from 'fastify';
import { buildWebApp, launchBrowser, listen, type TestBrowser } from './browser.js';
import { makeEvalApp } from './eval-app.js';

export interface WorkbenchFixture {
  app: FastifyInstance;
  /** http://127.0.0.1:<port> of the listening app. */
  base: string;
  browser: TestBrowser;
  close(): Promise<void>;
}

/** `env`: the eval app's settings beside the test defaults (makeEvalApp's). */
export async function openWorkbench(env: Record<string, string> = {}): Promise<WorkbenchFixture> {
  const built = await buildWebApp('workbench');
  const app = await makeEvalApp(env, { webRoot: built.root });
  const base = await listen(app);
  const browser = await launchBrowser();
  return {
    app,
    base,
    browser,
    close: async () => {
      await browser.close();
      await app.close();
      await built.cleanup();
    },
  };
}
