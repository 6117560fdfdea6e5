/**
 * The Subsonic library's reads through pg directly, on a pool of their own beside Prisma's
 * (repositories/prisma.ts, createMusicDatabase). Each statement is
 * sent as a named (prepared) statement, so PostgreSQL parses it once per connection and, after its
 * first few runs, reuses one plan instead of planning every call (the view's joins cost more to
 * plan than to run), and Prisma's per-query compilation is skipped. Where the best plan depends
 * on the values (search: a common word is best read in title order, a rare one through its
 * index), a SQL function plans that part with the values inside the prepared statement.
 */
import { createHash } from 'node:crypto';
import type pg from 'pg';
import type { AppError } from '../../../core/errors.js';
import { databaseUnavailableError } from '../database-errors.js';

/** A statement: text with $1..$n placeholders and its values. */
interface Statement {
  text: string;
  values: unknown[];
}

/** pg's and PostgreSQL's ways of saying the server cannot be used right now. */
const OUTAGE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  '57P01',
  '57P03',
  '53300',
]);
const OUTAGE_TEXT =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i;

function outage(err: unknown): AppError | undefined {
  const e = err as { code?: string; message?: string };
  if (!(e.code !== undefined && OUTAGE_CODES.has(e.code)) && !OUTAGE_TEXT.test(e.message ?? ''))
    return undefined;
  return databaseUnavailableError();
}

/** Statement names by text: a bounded set (the library composes a few dozen shapes). */
const MAX_NAMES = 2_000;

export class SqlReader {
  private readonly names = new Map<string, string>();

  constructor(private readonly pool: pg.Pool) {}

  /** Rows of a prepared statement (named by a digest of its text). */
  async rows<T>(statement: Statement): Promise<T[]> {
    return this.run<T>({ name: this.nameOf(statement.text), text: statement.text, values: statement.values });
  }

  private async run<T>(config: pg.QueryConfig): Promise<T[]> {
    try {
      return (await this.pool.query(config)).rows as T[];
    } catch (err) {
      throw outage(err) ?? err;
    }
  }

  private nameOf(text: string): string {
    let name = this.names.get(text);
    if (name === undefined) {
      name = `subsonic_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
      if (this.names.size < MAX_NAMES) this.names.set(text, name);
    }
    return name;
  }
}
