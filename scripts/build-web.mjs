// Builds the browser front-ends with Vite after type-checking them (Vite only strips types):
// web/workbench (served by eval at /) and web/player (served by music-api outside the API).
// Usage: node scripts/build-web.mjs [--app workbench|player] [--out DIR]   (default: dist/web)
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'vite';

const APPS = ['workbench', 'player'];
const { values } = parseArgs({ options: { app: { type: 'string' }, out: { type: 'string' } } });
const apps = values.app ? [values.app] : APPS;
for (const app of apps)
  if (!APPS.includes(app)) throw new Error(`unknown app ${app}; one of ${APPS.join(', ')}`);
const out = resolve(values.out ?? 'dist/web');

const tsc = spawnSync('npx', ['tsc', '--noEmit', '-p', 'web/tsconfig.json'], { stdio: 'inherit' });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);

for (const app of apps) {
  await build({
    root: resolve('web', app),
    base: '/',
    logLevel: 'warn',
    configFile: false,
    build: {
      outDir: join(out, app),
      emptyOutDir: true,
      target: 'es2022',
      // Every byte as a file: the pages run under CSPs without 'unsafe-inline'.
      assetsInlineLimit: 0,
      modulePreload: { polyfill: false },
      reportCompressedSize: false,
    },
  });
}
