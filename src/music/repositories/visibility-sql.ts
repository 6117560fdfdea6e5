/** The visibility policy (services/visibility-policy.ts) as a SQL condition for the repositories' queries. */
import { Prisma } from '../../../generated/prisma/client.js';
import type { Visibility } from '../services/visibility-policy.js';
import { allowed, type Access, type Viewer } from '../services/visibility-policy.js';

export type { Access };

/**
 * The same rule as a SQL condition over a row's owner and visibility columns (e.g.
 * `Prisma.raw('t.owner_user_id')`, `Prisma.raw('t.visibility')`).
 */
export function visibleSql(
  access: Access,
  viewer: Viewer,
  columns: { owner: Prisma.Sql; visibility: Prisma.Sql },
): Prisma.Sql {
  const within = (vs: Visibility[]) =>
    vs.length === 0
      ? Prisma.sql`false`
      : Prisma.sql`${columns.visibility}::text IN (${Prisma.join(vs.map((v) => Prisma.sql`${v}`))})`;
  const clauses = [within(allowed(access, 'anyone'))];
  if (viewer !== undefined) {
    clauses.push(
      Prisma.sql`(${columns.owner} = ${viewer.userId}::uuid AND ${within(allowed(access, 'owner'))})`,
    );
    if (viewer.role === 'admin') clauses.push(within(allowed(access, 'admin')));
  }
  return Prisma.sql`(${Prisma.join(clauses, ' OR ')})`;
}

/** Columns of the `tracks` table under an alias. */
export const trackColumns = (alias: string): { owner: Prisma.Sql; visibility: Prisma.Sql } => ({
  owner: Prisma.raw(`${alias}.owner_user_id`),
  visibility: Prisma.raw(`${alias}.visibility`),
});
