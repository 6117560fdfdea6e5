/** Tracks and their versions in PostgreSQL. */
import { Prisma } from '../../../generated/prisma/client.js';
import type { Visibility } from '../domain.js';
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

export class PrismaTrackRepository {
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

  /** Numbered one past the track's last version; the unique (track, number) index settles a race. */
  async createVersion(version: NewVersion): Promise<VersionRecord> {
    return retryConflicts(() =>
      this.prisma.$transaction(async (tx) => {
        const last = await tx.trackVersion.aggregate({
          where: { trackId: version.trackId },
          _max: { number: true },
        });
        return tx.trackVersion.create({ data: { ...version, number: (last._max.number ?? 0) + 1 } });
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
