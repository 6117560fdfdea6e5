/**
 * Who may see a track: one definition (the table below) gives both the predicate services call
 * and the SQL condition repositories put in their queries, so a page, a list, an API and a
 * download cannot disagree. Two kinds of access (docs/music-domain.md, "Visibility"):
 *
 * - `read`: the track by its id (REST GET, comments, plays, /rest getSong/stream/download/cover,
 *   signed media links): public and unlisted for anyone, private for its owner and admins.
 * - `list`: the track found without its id (profiles, trending, search, the Subsonic library):
 *   public for anyone, unlisted and private for their owner only. Shared lists (a profile,
 *   trending) are the same for everyone: they are evaluated as the anonymous viewer.
 */
import { Prisma } from '../../../generated/prisma/client.js';
import type { Role, Visibility } from '../domain.js';

export type Access = 'read' | 'list';

/** A signed-in caller, or undefined for anonymous. */
export type Viewer = { userId: string; role: Role } | undefined;

type Who = 'anyone' | 'owner' | 'admin';

export const VISIBILITIES: readonly Visibility[] = ['public', 'unlisted', 'private'];

/** The policy: for each access and visibility, who passes. */
export const POLICY: Readonly<Record<Access, Readonly<Record<Visibility, readonly Who[]>>>> = {
  read: { public: ['anyone'], unlisted: ['anyone'], private: ['owner', 'admin'] },
  list: { public: ['anyone'], unlisted: ['owner'], private: ['owner'] },
};

function allowed(access: Access, who: Who): Visibility[] {
  return VISIBILITIES.filter((v) => POLICY[access][v].includes(who));
}

/** The predicate: may this viewer see this track? */
export function maySee(
  access: Access,
  viewer: Viewer,
  track: { ownerUserId: string; visibility: Visibility },
): boolean {
  const rule = POLICY[access][track.visibility];
  if (rule.includes('anyone')) return true;
  if (viewer === undefined) return false;
  return (
    (rule.includes('owner') && viewer.userId === track.ownerUserId) ||
    (rule.includes('admin') && viewer.role === 'admin')
  );
}

/**
 * Who may manage a track (change it, and see its processing errors): whoever may read it were
 * it private — its owner and admins.
 */
export function mayManage(viewer: Viewer, track: { ownerUserId: string }): boolean {
  return maySee('read', viewer, { ownerUserId: track.ownerUserId, visibility: 'private' });
}

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
