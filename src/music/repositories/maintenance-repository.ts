/**
 * The worker's scheduled housekeeping as plain SQL and store calls. A first implementation of
 * MaintenanceTasks: the music domain may replace it (trending in Redis belongs to it).
 * Both are idempotent: a rerun recomputes the same rows, an aborted upload stays aborted.
 */
import type { MaintenanceTasks } from '../jobs/registry.js';
import type { ObjectStore } from './object-store/object-store.js';
import type { PrismaClient } from './prisma.js';

const DAY_MS = 86_400_000;
export const UPLOAD_ABANDONED_AFTER_MS = DAY_MS;
/** Days (UTC, counting today) whose stats each rollup recomputes from the raw plays. */
export const ROLLUP_DAYS = 2;

export class PrismaMaintenanceTasks implements MaintenanceTasks {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly originals: ObjectStore,
  ) {}

  async rollupAnalytics(nowMs: number): Promise<Record<string, number>> {
    const since = new Date(Math.floor(nowMs / DAY_MS) * DAY_MS - (ROLLUP_DAYS - 1) * DAY_MS);
    const rows = await this.prisma.$executeRaw`
      INSERT INTO track_daily_stats (track_id, version_id, day, plays, unique_listeners)
      SELECT track_id, version_id, day, count(*)::int, count(DISTINCT listener_hash)::int
      FROM play_events WHERE day >= ${since}::date
      GROUP BY track_id, version_id, day
      ON CONFLICT (track_id, version_id, day)
      DO UPDATE SET plays = EXCLUDED.plays, unique_listeners = EXCLUDED.unique_listeners`;
    return { days: ROLLUP_DAYS, rows };
  }

  async cleanupUploads(nowMs: number): Promise<Record<string, number>> {
    const stale = await this.prisma.asset.findMany({
      where: { status: 'uploading', createdAt: { lt: new Date(nowMs - UPLOAD_ABANDONED_AFTER_MS) } },
      select: { id: true, objectKey: true, multipartUploadId: true },
      take: 500,
    });
    let aborted = 0;
    for (const asset of stale) {
      if (asset.multipartUploadId) {
        try {
          await this.originals.abortMultipartUpload(asset.objectKey, asset.multipartUploadId);
        } catch (err) {
          // Already gone from the store: still mark it aborted.
          if ((err as { status?: number }).status !== 404) throw err;
        }
      }
      await this.prisma.asset.update({
        where: { id: asset.id },
        data: { status: 'aborted', multipartUploadId: null },
      });
      aborted++;
    }
    return { aborted };
  }
}
