#!/usr/bin/env node
// Builds the optional C++ addons in native/ (the graph kernel and the canonical-JSON
// canonicaliser) with node-gyp against the Node headers that are already installed with this
// Node (no download: these machines are offline); rebuilt when the running Node is not the one
// they were built with (native/build/runtime.json), e.g.
//   node scripts/build-native.mjs            build when sources changed since the last build
//   node scripts/build-native.mjs --force    always rebuild
//   node scripts/build-native.mjs --strict   exit 1 instead of 0 when the addons cannot be built
// Without a C++ toolchain it prints why and exits 0: the TypeScript implementations are used.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { nativeAbiVersion } from './native-abi.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const nativeDir = join(root, 'native');
// Every addon binding.gyp builds, with the `version` the loaders expect (one for all).
const abi = nativeAbiVersion();
const addons = [
  { file: join(nativeDir, 'build', 'Release', 'graph_kernel.node'), version: abi },
  { file: join(nativeDir, 'build', 'Release', 'canonical_json.node'), version: abi },
];
// What the addons were built with. A build for another runtime (e.g. Node 20's build after the
// switch to 24) is rebuilt, even when it would still load: its headers and ABI are another's.
const stampFile = join(nativeDir, 'build', 'runtime.json');
const runtime = {
  node: process.versions.node,
  modules: process.versions.modules,
  napi: process.versions.napi,
  arch: process.arch,
};
const args = new Set(process.argv.slice(2));
const strict = args.has('--strict') || process.env.GRAPH_KERNEL === 'native';
const force = args.has('--force');

function log(msg) {
  console.log(`[build-native] ${msg}`);
}

function giveUp(reason) {
  log(`${reason}`);
  log('the native addons are not built; the TypeScript implementations will be used (same results, slower).');
  process.exit(strict ? 1 : 0);
}

function runs(cmd, cmdArgs = ['--version']) {
  const r = spawnSync(cmd, cmdArgs, { stdio: 'ignore' });
  return r.status === 0;
}

/** NODE_MAJOR_VERSION from a node_version.h. */
function headerMajor(file) {
  const m = /#define NODE_MAJOR_VERSION (\d+)/.exec(readFileSync(file, 'utf8'));
  return m ? m[1] : null;
}

/** The directory holding include/node/node_api.h of the running Node's major version. */
function findNodeDir() {
  const candidates = [
    process.env.npm_config_nodedir,
    resolve(process.execPath, '..', '..'),
    process.config?.variables?.node_prefix,
    '/usr',
    '/usr/local',
  ].filter(Boolean);
  for (const dir of candidates) {
    const header = join(dir, 'include', 'node', 'node_api.h');
    const version = join(dir, 'include', 'node', 'node_version.h');
    if (existsSync(header) && existsSync(version)) {
      if (headerMajor(version) === process.versions.node.split('.')[0]) return dir;
      log(
        `skipping ${dir}/include/node: headers of Node ${headerMajor(version)}, running ${process.version}`,
      );
    }
  }
  return null;
}

function newestSource() {
  let newest = statSync(join(nativeDir, 'binding.gyp')).mtimeMs;
  for (const f of readdirSync(join(nativeDir, 'src')))
    newest = Math.max(newest, statSync(join(nativeDir, 'src', f)).mtimeMs);
  return newest;
}

/** Whether every addon loads in a fresh process and reports the expected version. */
function addonsLoad() {
  const checks = addons.map(
    ({ file, version }) =>
      `if (require(${JSON.stringify(file)}).version !== ${version}) { console.error(${JSON.stringify(`${file}: wrong version`)}); process.exit(3); }`,
  );
  const r = spawnSync(process.execPath, ['-e', checks.join('\n')], { stdio: 'inherit' });
  return r.status === 0;
}

/** Why the built addons were built for another runtime, or null when they match this one. */
function runtimeChange() {
  let built = null;
  try {
    built = JSON.parse(readFileSync(stampFile, 'utf8'));
  } catch {
    return `no record of the runtime they were built with (${stampFile})`;
  }
  const differs = Object.keys(runtime).filter((k) => built[k] !== runtime[k]);
  if (differs.length === 0) return null;
  return `built with Node ${built.node} (ABI ${built.modules}), running Node ${runtime.node} (ABI ${runtime.modules})`;
}

function upToDate() {
  const newest = newestSource();
  if (!addons.every(({ file }) => existsSync(file) && statSync(file).mtimeMs >= newest)) return false;
  const changed = runtimeChange();
  if (changed) {
    log(`rebuilding: ${changed}`);
    return false;
  }
  return addonsLoad();
}

if (!existsSync(join(nativeDir, 'binding.gyp'))) giveUp(`no ${join(nativeDir, 'binding.gyp')}`);

if (!force && upToDate()) {
  log(`up to date: ${addons.map((a) => a.file).join(', ')}`);
  process.exit(0);
}

const cxx =
  process.env.CXX || (runs('c++') ? 'c++' : runs('g++') ? 'g++' : runs('clang++') ? 'clang++' : null);
if (!cxx) giveUp('no C++ compiler found (c++, g++ or clang++; on Debian: apt-get install g++ make)');
if (!runs('make', ['--version'])) giveUp('make is not installed (on Debian: apt-get install make)');
const python = process.env.PYTHON || (runs('python3') ? 'python3' : null);
if (!python) giveUp('python3 is not installed; node-gyp needs it (on Debian: apt-get install python3)');

const nodedir = findNodeDir();
if (!nodedir)
  giveUp(
    `no Node headers found next to ${process.execPath} (include/node/node_api.h); install the package that ships them (e.g. Debian's nodejs or libnode-dev), or set npm_config_nodedir`,
  );

let nodeGyp;
try {
  nodeGyp = createRequire(join(root, 'package.json')).resolve('node-gyp/bin/node-gyp.js');
} catch {
  giveUp('node-gyp is not installed (it is a devDependency: run npm ci)');
}

log(`building with ${cxx}, headers from ${nodedir}/include/node`);
const r = spawnSync(process.execPath, [nodeGyp, 'rebuild', `--nodedir=${nodedir}`, '--loglevel=warn'], {
  cwd: nativeDir,
  stdio: 'inherit',
  env: { ...process.env, PYTHON: python, npm_config_nodedir: nodedir },
});
if (r.status !== 0) {
  rmSync(join(nativeDir, 'build'), { recursive: true, force: true });
  giveUp(`node-gyp failed (exit ${r.status}); see the compiler output above`);
}
if (!addonsLoad()) {
  rmSync(join(nativeDir, 'build'), { recursive: true, force: true });
  giveUp('a built addon does not load');
}
writeFileSync(stampFile, `${JSON.stringify({ ...runtime, nodedir }, null, 2)}\n`);
log(`built ${addons.map((a) => a.file).join(', ')} for Node ${runtime.node} (ABI ${runtime.modules})`);
