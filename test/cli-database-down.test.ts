/**
 * The command-line tool when its database cannot be used (missing, or nothing listening): one
 * line naming the cause and what to check, exit code 1, never the database client's stack trace.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { freePort } from './helpers/free-port.js';

const ROOT = join(import.meta.dirname, '..');

async function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stderr: string }> {
  try {
    await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'src', 'main', 'cli.ts'), ...args],
      {
        cwd: ROOT,
        env: { ...process.env, LOG_LEVEL: 'silent', ...env },
      },
    );
    return { code: 0, stderr: '' };
  } catch (err) {
    const e = err as { code: number; stderr: string };
    return { code: e.code, stderr: e.stderr };
  }
}

describe('cli with its database down', () => {
  it('says which database and what to check, in one line', async () => {
    const missing = await cli(['library', 'import', ROOT, '--owner', 'nobody'], {
      DATABASE_URL: 'postgresql://postgres@127.0.0.1:5432/no_such_database_for_this_test',
    });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(
      /^library: the database cannot be used \(.*no_such_database_for_this_test.*\); check DATABASE_URL/,
    );
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);

    const closed = await cli(['library', 'import', ROOT, '--owner', 'nobody'], {
      DATABASE_URL: `postgresql://postgres@127.0.0.1:${await freePort()}/music`,
    });
    expect(closed.code).toBe(1);
    expect(closed.stderr).toMatch(/^library: the database cannot be used \(.+\); check DATABASE_URL/);
    expect(closed.stderr.trim().split('\n')).toHaveLength(1);
  }, 60_000);
});
