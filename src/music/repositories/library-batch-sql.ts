/**
 * A library import batch's new files written with one SQL statement a table (Prisma's createMany
 * spent about 2 ms of CPU a row compiling them). Each statement takes the whole batch as one
 * JSON parameter that PostgreSQL turns into rows of the table's own type
 * (`jsonb_populate_recordset`): the column types are the table's, never a second list here, and
 * the text of every tag travels as JSON, never spliced into SQL.
 */
import { randomUUID } from 'node:crypto';
import { Prisma } from '../../../generated/prisma/client.js';
import type { Visibility } from '../services/visibility-policy.js';
import { retryConflicts } from './conflict-retry.js';
import { assetRow, fileColumns, type ImportedFile, type StartedVersion } from './library-rows.js';
import type { PrismaClient } from './prisma.js';

type Row = Record<string, unknown>;

/** The schema maps every field to its snake_case column; a name that differs fails the statement loudly. */
function columnOf(field: string): string {
  const column = field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  if (!/^[a-z][a-z0-9_]*$/.test(column)) throw new Error(`not a column name: ${field}`);
  return column;
}

function jsonValue(value: unknown): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return value.toISOString();
  return value ?? null;
}

/** The batch as rows of `table`, and their columns: the fields of every row (a field a row lacks is NULL). */
function batchRows(table: string, rows: Row[]): { fields: string[]; columns: Prisma.Sql; from: Prisma.Sql } {
  const fields = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const pairs = fields.map((f) => [f, columnOf(f)] as const);
  const columns = pairs.map(([, c]) => c);
  const json = JSON.stringify(
    rows.map((r) => Object.fromEntries<unknown>(pairs.map(([f, c]) => [c, jsonValue(r[f])]))),
  );
  return {
    fields,
    columns: Prisma.raw(columns.map((c) => `"${c}"`).join(', ')),
    from: Prisma.sql`jsonb_populate_recordset(NULL::${Prisma.raw(`"${table}"`)}, ${json}::jsonb)`,
  };
}

/**
 * INSERT of `rows` (objects keyed by Prisma field names) into `table`, `updated_at` now (what
 * Prisma's @updatedAt sets); `tail` adds ON CONFLICT / RETURNING.
 */
export function insertRows(table: string, rows: Row[], tail: Prisma.Sql = Prisma.empty): Prisma.Sql {
  const { columns, from } = batchRows(table, rows);
  return Prisma.sql`INSERT INTO ${Prisma.raw(`"${table}"`)} (${columns}, "updated_at")
    SELECT ${columns}, now() FROM ${from} ${tail}`;
}

/** UPDATE of `table` rows by id: each row's other fields set, `updated_at` now. */
export function updateRows(table: string, rows: Row[]): Prisma.Sql {
  const { fields, from } = batchRows(table, rows);
  const set = fields
    .filter((f) => f !== 'id')
    .map((f) => `"${columnOf(f)}" = r."${columnOf(f)}"`)
    .join(', ');
  return Prisma.sql`UPDATE ${Prisma.raw(`"${table}"`)} t SET ${Prisma.raw(set)}, "updated_at" = now()
    FROM ${from} r WHERE t."id" = r."id"`;
}

export interface NewFileItem {
  file: ImportedFile;
  title: string;
  visibility: Visibility;
  /** The file's row is there without a track (its track was deleted): updated, not added. */
  rowId?: string;
}

/**
 * The asset of each content key, made when missing: one a key (content the batch holds twice is
 * one asset), and a key already there (a deleted track's, another import's) reused.
 */
async function assetsOf(tx: Prisma.TransactionClient, files: ImportedFile[]): Promise<Map<string, string>> {
  const rows = [...new Map(files.map((f) => [f.objectKey, assetRow(f)])).values()];
  const made = await tx.$queryRaw<{ id: string; object_key: string }[]>(
    insertRows(
      'assets',
      rows,
      Prisma.sql`ON CONFLICT ("object_key") DO NOTHING RETURNING "id", "object_key"`,
    ),
  );
  const assetOf = new Map(made.map((a) => [a.object_key, a.id]));
  const there = rows.map((r) => r.objectKey).filter((key) => !assetOf.has(key));
  if (there.length > 0)
    for (const a of await tx.$queryRaw<{ id: string; object_key: string }[]>`
      SELECT "id", "object_key" FROM "assets" WHERE "object_key" = ANY(${there}::text[])`)
      assetOf.set(a.object_key, a.id);
  for (const f of files)
    if (!assetOf.has(f.objectKey)) throw new Error(`asset ${f.objectKey} was not recorded`);
  return assetOf;
}

/**
 * New tracks of one version each from new files, with their assets and rows, counted as
 * imported: one transaction (all or none) of one statement a table for the whole batch.
 */
export async function recordNewFiles(prisma: PrismaClient, items: NewFileItem[]): Promise<StartedVersion[]> {
  if (items.length === 0) return [];
  const importId = (items[0] as NewFileItem).file.importId;
  return retryConflicts(() =>
    prisma.$transaction(
      async (tx) => {
        const assetOf = await assetsOf(
          tx,
          items.map((i) => i.file),
        );
        const started: StartedVersion[] = items.map((i) => ({
          id: randomUUID(),
          trackId: randomUUID(),
          assetId: assetOf.get(i.file.objectKey) as string,
        }));
        const at = (n: number): StartedVersion => started[n] as StartedVersion;
        await tx.$executeRaw(
          insertRows(
            'tracks',
            items.map((i, n) => ({
              id: at(n).trackId,
              ownerUserId: i.file.ownerUserId,
              title: i.title,
              visibility: i.visibility,
            })),
          ),
        );
        await tx.$executeRaw(
          insertRows(
            'track_versions',
            items.map((i, n) => ({
              ...i.file.versionFields,
              id: at(n).id,
              trackId: at(n).trackId,
              assetId: at(n).assetId,
              number: 1,
            })),
          ),
        );
        const row = (i: NewFileItem, n: number) => ({
          ...fileColumns(i.file),
          trackId: at(n).trackId,
          versionId: at(n).id,
        });
        const added = items.flatMap((i, n) =>
          i.rowId === undefined
            ? [
                {
                  id: randomUUID(),
                  ownerUserId: i.file.ownerUserId,
                  root: i.file.root,
                  path: i.file.path,
                  ...row(i, n),
                },
              ]
            : [],
        );
        if (added.length > 0) await tx.$executeRaw(insertRows('library_files', added));
        const kept = items.flatMap((i, n) => (i.rowId === undefined ? [] : [{ id: i.rowId, ...row(i, n) }]));
        if (kept.length > 0) await tx.$executeRaw(updateRows('library_files', kept));
        await tx.$executeRaw`UPDATE "library_imports" SET "imported" = "imported" + ${items.length},
          "updated_at" = now() WHERE "id" = ${importId}::uuid`;
        return started;
      },
      { timeout: 60_000, maxWait: 30_000 },
    ),
  );
}
