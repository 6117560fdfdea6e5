/** The platform's version (package.json), reported as Subsonic's `serverVersion`. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

function findVersion(): string {
  // src/music/repositories/ and dist/src/music/repositories/ both reach the project root by walking up.
  for (const up of ['../../..', '../../../..']) {
    try {
      const pkg = JSON.parse(readFileSync(join(import.meta.dirname, up, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.version) return pkg.version;
    } catch {
      // not at this level
    }
  }
  return 'unknown';
}

export const MUSIC_SERVER_VERSION = findVersion();
