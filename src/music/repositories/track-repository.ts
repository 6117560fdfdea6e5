/** Tracks and their versions in PostgreSQL. */
import { Prisma } from '../../../generated/prisma/client.js';
import type { Visibility } from '../services/visibility-policy.js';
import { retryConflicts } from './conflict-retry.js';
import type { PrismaClient } from './prisma.js';

export interface TrackSummary {
  id: string;
  title: string;
  description: string;
  ownerUserId: string;
  visibility: Visibility;
  currentVersionId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface TrackCursor {
  createdAt: Date;
  id: string;
}

export type VersionRecord = Prisma.TrackVersionGetPayload<object>;

/** The version columns a version's tags live in (see docs/music-domain.md). */
export type VersionTagColumns = Pick<
  VersionRecord,
  | 'tagTitle'
  | 'tagArtist'
  | 'tagAlbumArtist'
  | 'tagAlbum'
  | 'tagGenre'
  | 'tagTrackNumber'
  | 'tagDiscNumber'
  | 'tagYear'
  | 'tagDate'
  | 'mbRecordingId'
  | 'mbTrackId'
  | 'mbAlbumId'
  | 'mbArtistId'
  | 'mbAlbumArtistId'
>;

export type NewVersion = VersionTagColumns &
  Pick<VersionRecord, 'trackId' | 'assetId' | 'durationMs' | 'codec' | 'bitRate' | 'channels' | 'sampleRate'>;

/** Why an upload did not become a version: it already backs one, or its owner has too many in processing. */
export type VersionRefusal =
  | { refused: 'asset-used'; version: { id: string; number: number; trackId: string; trackTitle: string } }
  | { refused: 'busy'; inFlight: number };

/** What a track page shows beside the track: its owner, counts, and its version's artist and album. */
export interface TrackContextRow {
  ownerHandle: string;
  ownerDisplayName: string;
  plays: number;
  comments: number;
  /** The Subsonic grouping of the version (migration 20261125041000): null without a version. */
  artist: string | null;
  artistId: string | null;
  album: string | null;
  albumId: string | null;
  /** The viewer (when one is given) holds a paid purchase of the track. */
  bought: boolean;
}

type TrackWithVersionsRow = TrackSummary & { versions: Record<string, unknown>[] };

/**
 * A version as a JSON object of the model's own fields (columns are their snake_case; the
 * subsonic search columns are left out, as Prisma leaves them out).
 */
const VERSION_JSON = Prisma.raw(
  `json_build_object(${Object.values(Prisma.TrackVersionScalarFieldEnum)
    .map((field) => `'${field}', v.${field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`)
    .join(', ')})`,
);

/** A version as VERSION_JSON writes it: only its timestamps are text. */
function versionFromJson(json: Record<string, unknown>): VersionRecord {
  return {
    ...json,
    createdAt: new Date(json.createdAt as string),
    updatedAt: new Date(json.updatedAt as string),
  } as VersionRecord;
}

export interface TrackRepository {
  create(track: {
    ownerUserId: string;
    title: string;
    description: string;
    visibility: Visibility;
  }): Promise<TrackSummary>;
  /**
   * The track and its versions (newest first) in one statement: the track page is the hottest
   * read, and each Prisma query costs more CPU than the SQL itself (docs/music-domain.md).
   */
  findWithVersions(id: string): Promise<{ track: TrackSummary; versions: VersionRecord[] } | undefined>;
  /**
   * Owner, counts and the artist and album of `versionId`, in one statement. Plays per day are
   * the larger of the rolled-up count and the raw plays still kept (the rollup's own rule), so
   * a play counts before the next rollup.
   */
  context(
    trackId: string,
    versionId: string | null,
    viewerUserId?: string,
  ): Promise<TrackContextRow | undefined>;
  /** Every track of one owner (any visibility), newest first, with its versions; strictly past `cursor`. */
  listByOwner(
    ownerUserId: string,
    limit: number,
    cursor: TrackCursor | undefined,
  ): Promise<(TrackSummary & { versions: VersionRecord[] })[]>;
  setCurrentVersion(trackId: string, versionId: string): Promise<TrackSummary>;
  findById(id: string): Promise<TrackSummary | undefined>;
  /** The owner and visibility of the track a version belongs to (media delivery asks per request). */
  trackOfVersion(versionId: string): Promise<{ ownerUserId: string; visibility: Visibility } | undefined>;
  /** Visibility of many tracks at once (trending filters on it). */
  visibilities(ids: string[]): Promise<Map<string, TrackSummary>>;
  update(
    id: string,
    changes: { title?: string; description?: string; visibility?: Visibility },
  ): Promise<TrackSummary>;
  /** Deletes the track (its versions, comments and plays cascade); returns its versions as they were. */
  delete(id: string): Promise<VersionRecord[]>;
  listVersions(trackId: string): Promise<VersionRecord[]>;
  findVersion(id: string): Promise<VersionRecord | undefined>;
  /**
   * A version from an upload, numbered one past the track's last: refused when the asset already
   * backs a version, or when the owner has `maxInFlight` versions from uploads pending or processing.
   */
  createVersion(
    version: NewVersion,
    owner: { userId: string; maxInFlight: number },
  ): Promise<VersionRecord | VersionRefusal>;
  updateVersionTags(id: string, tags: Partial<VersionTagColumns>): Promise<VersionRecord>;
  countVersionsOfAsset(assetId: string): Promise<number>;
  deleteAsset(assetId: string): Promise<void>;
}

export class PrismaTrackRepository implements TrackRepository {
  constructor(private readonly prisma: PrismaClient) {}

  create(track: {
    ownerUserId: string;
    title: string;
    description: string;
    visibility: Visibility;
  }): Promise<TrackSummary> {
    return retryConflicts(() => this.prisma.track.create({ data: track }));
  }

  /**
   * The track and its versions (newest first) in one statement: the track page is the hottest
   * read, and each Prisma query costs more CPU than the SQL itself (docs/music-domain.md).
   */
  async findWithVersions(
    id: string,
  ): Promise<{ track: TrackSummary; versions: VersionRecord[] } | undefined> {
    const rows = await this.prisma.$queryRaw<TrackWithVersionsRow[]>`
      SELECT t.id, t.title, t.description, t.owner_user_id AS "ownerUserId",
             t.visibility::text AS visibility, t.current_version_id AS "currentVersionId",
             t.created_at AS "createdAt", t.updated_at AS "updatedAt",
             coalesce((SELECT json_agg(${VERSION_JSON} ORDER BY v.number DESC) FROM track_versions v WHERE v.track_id = t.id),
                      '[]'::json) AS versions
      FROM tracks t WHERE t.id = ${id}::uuid`;
    const row = rows[0];
    if (!row) return undefined;
    const { versions, ...track } = row;
    return { track, versions: versions.map(versionFromJson) };
  }

  /**
   * Owner, counts and the artist and album of `versionId`, in one statement. Plays per day are
   * the larger of the rolled-up count and the raw plays still kept (the rollup's own rule), so
   * a play counts before the next rollup.
   */
  async context(
    trackId: string,
    versionId: string | null,
    viewerUserId?: string,
  ): Promise<TrackContextRow | undefined> {
    const rows = await this.prisma.$queryRaw<TrackContextRow[]>`
      SELECT u.handle AS "ownerHandle", u.display_name AS "ownerDisplayName",
        (SELECT coalesce(sum(greatest(coalesce(d.plays, 0), coalesce(e.n, 0))), 0)::int
           FROM (SELECT day, sum(plays) AS plays FROM track_daily_stats WHERE track_id = t.id GROUP BY day) d
           FULL JOIN (SELECT day, count(*) AS n FROM play_events WHERE track_id = t.id GROUP BY day) e
           ON e.day = d.day) AS plays,
        (SELECT count(*)::int FROM comments c WHERE c.track_id = t.id AND c.deleted_at IS NULL) AS comments,
        coalesce(nullif(btrim(v.tag_artist), ''), nullif(btrim(v.tag_album_artist), '')) AS artist,
        CASE WHEN coalesce(nullif(btrim(v.tag_artist), ''), nullif(btrim(v.tag_album_artist), '')) IS NOT NULL
          THEN v.sub_artist_id END AS "artistId",
        nullif(btrim(v.tag_album), '') AS album,
        CASE WHEN nullif(btrim(v.tag_album), '') IS NOT NULL THEN v.sub_album_id END AS "albumId",
        EXISTS (SELECT 1 FROM purchases p WHERE p.buyer_user_id = ${viewerUserId ?? null}::uuid
          AND p.track_id = t.id AND p.kind = 'sale' AND p.status = 'paid') AS bought
      FROM tracks t JOIN users u ON u.id = t.owner_user_id
      LEFT JOIN track_versions v ON v.id = ${versionId}::uuid AND v.track_id = t.id
      WHERE t.id = ${trackId}::uuid`;
    return rows[0];
  }

  /** Every track of one owner (any visibility), newest first, with its versions; strictly past `cursor`. */
  listByOwner(
    ownerUserId: string,
    limit: number,
    cursor: TrackCursor | undefined,
  ): Promise<(TrackSummary & { versions: VersionRecord[] })[]> {
    return this.prisma.track.findMany({
      where: {
        ownerUserId,
        ...(cursor
          ? {
              OR: [
                { createdAt: { lt: cursor.createdAt } },
                { createdAt: cursor.createdAt, id: { lt: cursor.id } },
              ],
            }
          : {}),
      },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit,
      include: { versions: { orderBy: { number: 'desc' } } },
    });
  }

  setCurrentVersion(trackId: string, versionId: string): Promise<TrackSummary> {
    return retryConflicts(() =>
      this.prisma.track.update({ where: { id: trackId }, data: { currentVersionId: versionId } }),
    );
  }

  async findById(id: string): Promise<TrackSummary | undefined> {
    return (await this.prisma.track.findUnique({ where: { id } })) ?? undefined;
  }

  /** The owner and visibility of the track a version belongs to (media delivery asks per request). */
  async trackOfVersion(
    versionId: string,
  ): Promise<{ ownerUserId: string; visibility: Visibility } | undefined> {
    const rows = await this.prisma.$queryRaw<{ ownerUserId: string; visibility: Visibility }[]>`
      SELECT t.owner_user_id::text AS "ownerUserId", t.visibility::text AS visibility
      FROM track_versions v JOIN tracks t ON t.id = v.track_id WHERE v.id = ${versionId}::uuid`;
    return rows[0];
  }

  /** Visibility of many tracks at once (trending filters on it). */
  async visibilities(ids: string[]): Promise<Map<string, TrackSummary>> {
    const rows = await this.prisma.track.findMany({ where: { id: { in: ids } } });
    return new Map(rows.map((r) => [r.id, r]));
  }

  update(
    id: string,
    changes: { title?: string; description?: string; visibility?: Visibility },
  ): Promise<TrackSummary> {
    return retryConflicts(() => this.prisma.track.update({ where: { id }, data: changes }));
  }

  /** Deletes the track (its versions, comments and plays cascade); returns its versions as they were. */
  async delete(id: string): Promise<VersionRecord[]> {
    return retryConflicts(() =>
      this.prisma.$transaction(async (tx) => {
        const versions = await tx.trackVersion.findMany({ where: { trackId: id } });
        await tx.track.delete({ where: { id } });
        return versions;
      }),
    );
  }

  listVersions(trackId: string): Promise<VersionRecord[]> {
    return this.prisma.trackVersion.findMany({ where: { trackId }, orderBy: { number: 'desc' } });
  }

  async findVersion(id: string): Promise<VersionRecord | undefined> {
    return (await this.prisma.trackVersion.findUnique({ where: { id } })) ?? undefined;
  }

  /**
   * Numbered one past the track's last version; the unique (track, number) index settles a race,
   * the partial unique index track_versions_one_per_upload a second version of one upload.
   */
  async createVersion(
    version: NewVersion,
    owner: { userId: string; maxInFlight: number },
  ): Promise<VersionRecord | VersionRefusal> {
    return retryConflicts(() =>
      this.prisma.$transaction(async (tx) => {
        // One owner's adds one at a time (whatever the track), so the checks below hold until the commit.
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`versions:${owner.userId}`}, 0))`;
        const used = await tx.trackVersion.findFirst({
          where: { assetId: version.assetId },
          orderBy: { createdAt: 'asc' },
          select: { id: true, number: true, trackId: true, track: { select: { title: true } } },
        });
        if (used) {
          const { track, ...rest } = used;
          return { refused: 'asset-used', version: { ...rest, trackTitle: track.title } } as const;
        }
        const inFlight = await tx.trackVersion.count({
          where: {
            fromUpload: true,
            status: { in: ['pending', 'processing'] },
            track: { ownerUserId: owner.userId },
          },
        });
        if (inFlight >= owner.maxInFlight) return { refused: 'busy', inFlight } as const;
        // Versions of one track are numbered one at a time: two added at once would read the same last number.
        await tx.$queryRaw`SELECT 1 FROM tracks WHERE id = ${version.trackId}::uuid FOR NO KEY UPDATE`;
        const last = await tx.trackVersion.aggregate({
          where: { trackId: version.trackId },
          _max: { number: true },
        });
        return tx.trackVersion.create({
          data: { ...version, fromUpload: true, number: (last._max.number ?? 0) + 1 },
        });
      }),
    );
  }

  updateVersionTags(id: string, tags: Partial<VersionTagColumns>): Promise<VersionRecord> {
    return retryConflicts(() => this.prisma.trackVersion.update({ where: { id }, data: tags }));
  }

  async countVersionsOfAsset(assetId: string): Promise<number> {
    return this.prisma.trackVersion.count({ where: { assetId } });
  }

  async deleteAsset(assetId: string): Promise<void> {
    await this.prisma.asset.deleteMany({ where: { id: assetId } });
  }
}
