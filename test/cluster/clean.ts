/** Removes what a run of `make cluster-test` left (namespaces and their processes, links, temp dirs). */
import { readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanNetwork } from './netns.js';

await cleanNetwork();
for (const name of await readdir(tmpdir()))
  if (name.startsWith('vmc-')) await rm(join(tmpdir(), name), { recursive: true, force: true });
