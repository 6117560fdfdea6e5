/** Tracks and their versions in PostgreSQL. */
import type { Prisma } from '../../../generated/prisma/client.js';
import type { Visibility } from '../domain.js';
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

export class PrismaTrackRepository {
  constructor(private readonly prisma: PrismaClient) {}

  create(track: {
    ownerUserId: string;
    title: string;
    description: string;
    visibility: Visibility;
  }): Promise<TrackSummary> {
    return this.prisma.track.create({ data: track });
  }

  async findById(id: string): Promise<TrackSummary | undefined> {
    return (await this.prisma.track.findUnique({ where: { id } })) ?? undefined;
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
    return this.prisma.track.update({ where: { id }, data: changes });
  }

  /** Deletes the track (its versions, comments and plays cascade); returns its versions as they were. */
  async delete(id: string): Promise<VersionRecord[]> {
    return this.prisma.$transaction(async (tx) => {
      const versions = await tx.trackVersion.findMany({ where: { trackId: id } });
      await tx.track.delete({ where: { id } });
      return versions;
    });
  }

  listVersions(trackId: string): Promise<VersionRecord[]> {
    return this.prisma.trackVersion.findMany({ where: { trackId }, orderBy: { number: 'desc' } });
  }

  async findVersion(id: string): Promise<VersionRecord | undefined> {
    return (await this.prisma.trackVersion.findUnique({ where: { id } })) ?? undefined;
  }

  /** Numbered one past the track's last version; the unique (track, number) index settles a race. */
  async createVersion(version: NewVersion): Promise<VersionRecord> {
    return this.prisma.$transaction(async (tx) => {
      const last = await tx.trackVersion.aggregate({
        where: { trackId: version.trackId },
        _max: { number: true },
      });
      return tx.trackVersion.create({ data: { ...version, number: (last._max.number ?? 0) + 1 } });
    });
  }

  updateVersionTags(id: string, tags: Partial<VersionTagColumns>): Promise<VersionRecord> {
    return this.prisma.trackVersion.update({ where: { id }, data: tags });
  }

  async countVersionsOfAsset(assetId: string): Promise<number> {
    return this.prisma.trackVersion.count({ where: { assetId } });
  }

  async deleteAsset(assetId: string): Promise<void> {
    await this.prisma.asset.deleteMany({ where: { id: assetId } });
  }
}
