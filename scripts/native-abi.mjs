#!/usr/bin/env node
// The eval addons' one ABI version, read from its single definition (NATIVE_ABI_VERSION in
// src/eval/repositories/native-addon.ts). native/binding.gyp compiles it into both addons, and
// scripts/build-native.mjs checks the built ones against it. Run directly, it prints it.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'src', 'eval', 'repositories', 'native-addon.ts');

export function nativeAbiVersion() {
  const m = /^export const NATIVE_ABI_VERSION = (\d+);$/m.exec(readFileSync(source, 'utf8'));
  if (!m) throw new Error(`${source} does not define NATIVE_ABI_VERSION as a number literal`);
  return Number(m[1]);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  process.stdout.write(`${nativeAbiVersion()}\n`);
