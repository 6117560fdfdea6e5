/**
 * Publishing job output without ever exposing half of it: every file is first uploaded under
 * a staging key unique to this attempt, and only when all uploads succeeded are they moved to
 * their final keys, the entry file (e.g. master.m3u8) last. A killed or failed attempt leaves
 * only staging keys (removed on failure), never a partial set under the final keys, and a
 * failed re-run never replaces good output.
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { ObjectStore } from '../../src/music/repositories/object-store/object-store.js';

export interface OutputFile {
  /** Key relative to the version's folder, e.g. "128k/seg_00000.m4s". */
  name: string;
  path: string;
}

export const STAGING_PREFIX = 'staging';

export async function publish(
  store: ObjectStore,
  versionId: string,
  files: readonly OutputFile[],
  entry?: string,
): Promise<void> {
  const staging = `${STAGING_PREFIX}/${versionId}/${randomUUID()}`;
  const staged: string[] = [];
  try {
    for (const file of files) {
      const key = `${staging}/${file.name}`;
      await store.put(key, createReadStream(file.path));
      staged.push(key);
    }
  } catch (err) {
    await Promise.allSettled(staged.map((k) => store.delete(k)));
    throw err;
  }
  const ordered = [...files].sort((a, b) => Number(a.name === entry) - Number(b.name === entry));
  for (const file of ordered) await store.move(`${staging}/${file.name}`, `${versionId}/${file.name}`);
}
