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
    await eachLimited(files, async (file) => {
      const key = `${staging}/${file.name}`;
      await store.put(key, createReadStream(file.path));
      staged.push(key);
    });
  } catch (err) {
    await Promise.allSettled(staged.map((k) => store.delete(k)));
    throw err;
  }
  const rest = files.filter((f) => f.name !== entry);
  await eachLimited(rest, (file) => store.move(`${staging}/${file.name}`, `${versionId}/${file.name}`));
  if (entry !== undefined && files.some((f) => f.name === entry))
    await store.move(`${staging}/${entry}`, `${versionId}/${entry}`);
}

/** A few store requests at once: S3 round trips overlap; a filesystem store barely notices. */
const PARALLEL = 4;

async function eachLimited<T>(items: readonly T[], fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: Error | undefined;
  const lane = async (): Promise<void> => {
    while (failure === undefined && next < items.length) {
      const item = items[next++]!;
      try {
        await fn(item);
      } catch (err) {
        failure ??= err instanceof Error ? err : new Error(String(err));
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, items.length) }, lane));
  if (failure !== undefined) throw failure;
}
