/**
 * The runtime the tests run on is the one the project declares (package.json engines, Node 24
 * provided by `make setup`), and the native addons were built for it, not for an older Node.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ciPromisesAddons } from '../src/eval/speed/addons-promised.testing.js';

const ROOT = join(import.meta.dirname, '..');

function requiredMajor(): number {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } };
  const m = /^>=(\d+)$/.exec(pkg.engines.node);
  if (!m) throw new Error(`engines.node is ${pkg.engines.node}, expected ">=N"`);
  return Number(m[1]);
}

describe('runtime', () => {
  it(`runs on the Node that package.json requires (this run: Node ${process.version})`, () => {
    expect(requiredMajor()).toBe(24);
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(requiredMajor());
  });

  it('uses native addons built with this Node (rebuilt when the runtime changes)', (ctx) => {
    const stamp = join(ROOT, 'native', 'build', 'runtime.json');
    if (!existsSync(stamp) && !ciPromisesAddons()) ctx.skip();
    const built = JSON.parse(readFileSync(stamp, 'utf8')) as Record<string, string>;
    expect(built).toMatchObject({ node: process.versions.node, modules: process.versions.modules });
  });
});
