/**
 * Who may see a track: one definition (the table below) gives both the predicate services call
 * and the SQL condition repositories put in their queries (repositories/visibility-sql.ts), so
 * a page, a list, an API and a download cannot disagree. Two kinds of access (docs/music-domain.md, "Visibility"):
 *
 * - `read`: the track by its id (REST GET, comments, plays, /rest getSong/stream/download/cover,
 *   signed media links): public and unlisted for anyone, private for its owner and admins.
 * - `list`: the track found without its id (profiles, trending, search, the Subsonic library):
 *   public for anyone, unlisted and private for their owner only. Shared lists (a profile,
 *   trending) are the same for everyone: they are evaluated as the anonymous viewer.
 */
import type { Role } from '../auth-context.js';

export type Visibility = 'public' | 'unlisted' | 'private';

export type Access = 'read' | 'list';

/** A signed-in caller, or undefined for anonymous. */
export type Viewer = { userId: string; role: Role } | undefined;

export type Who = 'anyone' | 'owner' | 'admin';

export const VISIBILITIES: readonly Visibility[] = ['public', 'unlisted', 'private'];

/** The policy: for each access and visibility, who passes. */
export const POLICY: Readonly<Record<Access, Readonly<Record<Visibility, readonly Who[]>>>> = {
  read: { public: ['anyone'], unlisted: ['anyone'], private: ['owner', 'admin'] },
  list: { public: ['anyone'], unlisted: ['owner'], private: ['owner'] },
};

/** The visibilities this kind of viewer passes for this access (repositories/visibility-sql.ts). */
export function allowed(access: Access, who: Who): Visibility[] {
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
 * Who may read a playlist (REST and Subsonic alike): a public one as a public track, a private
 * one as a private track (its owner, and admins). Its songs are each still checked as tracks.
 */
export function mayReadPlaylist(viewer: Viewer, playlist: { ownerUserId: string; public: boolean }): boolean {
  return maySee('read', viewer, {
    ownerUserId: playlist.ownerUserId,
    visibility: playlist.public ? 'public' : 'private',
  });
}
