/**
 * Plays and trending. A play is counted once per listener per track per 30 minutes; the
 * listener is `sha256(IP_HASH_SALT ‖ day ‖ address)`, never the address. `rollup` (the
 * analytics-rollup job) folds raw plays into daily stats, prunes raw plays older than 48 h
 * and recomputes trending: Σ plays · 2^(−age / 24 h), public tracks only, kept in Redis.
 */
import { createHash } from 'node:crypto';
import { isUuid } from '../uuid.js';
import type { AuthContext } from '../auth-context.js';
import type { PlayRepository } from '../repositories/play-repository.js';
import type { TrackRepository } from '../repositories/track-repository.js';
import type { TrackService } from './track-service.js';
import { shownVersion, trackSummaryView } from './track-views.js';
import { maySee } from './visibility-policy.js';
import { noPlayableVersion } from '../errors/tracks.js';

export const PLAY_DEDUP_SECONDS = 30 * 60;
export const RAW_RETENTION_MS = 48 * 3600_000;
export const HALF_LIFE_SECONDS = 24 * 3600;
const DAY_MS = 24 * 3600_000;
export const TRENDING_WINDOWS = { day: 1, week: 7 } as const;
export type TrendingWindow = keyof typeof TRENDING_WINDOWS;

export interface PlayInput {
  track_id: string;
  version_id?: string;
  position_ms?: number;
}

const utcDay = (ms: number): Date => new Date(Math.floor(ms / DAY_MS) * DAY_MS);

export function listenerHash(salt: string, day: Date, address: string): string {
  return createHash('sha256')
    .update(salt)
    .update(day.toISOString().slice(0, 10))
    .update(address)
    .digest('hex');
}

export class AnalyticsService {
  /** Built trending answers (JSON) per window and limit, valid while their stamp is current. */
  private readonly built = new Map<string, { stamp: string; json: string }>();

  constructor(
    private readonly plays: PlayRepository,
    private readonly tracks: TrackRepository,
    private readonly trackAccess: TrackService,
    private readonly salt: string,
    private readonly nowMs: () => number = Date.now,
  ) {}

  async recordPlay(
    auth: AuthContext | undefined,
    address: string,
    input: PlayInput,
  ): Promise<{ counted: boolean }> {
    const track = await this.trackAccess.visible(auth, input.track_id);
    const versions = await this.tracks.listVersions(track.id);
    const version =
      input.version_id === undefined
        ? (shownVersion(track, versions) ?? versions[0])
        : versions.find((v) => isUuid(input.version_id ?? '') && v.id === input.version_id?.toLowerCase());
    if (!version) {
      throw noPlayableVersion(input.version_id !== undefined);
    }
    const now = this.nowMs();
    const day = utcDay(now);
    const hash = listenerHash(this.salt, day, address);
    if (!(await this.plays.firstPlayInWindow(track.id, hash, PLAY_DEDUP_SECONDS))) return { counted: false };
    await this.plays.insert({
      trackId: track.id,
      versionId: version.id,
      listenerHash: hash,
      positionMs: input.position_ms ?? null,
      day,
      occurredAt: new Date(now),
    });
    return { counted: true };
  }

  /** The analytics-rollup job: daily stats, pruning, trending. Idempotent; `nowMs` for tests and the CLI. */
  async rollup(
    nowMs = this.nowMs(),
  ): Promise<{ statsRows: number; pruned: number; trending: Record<TrendingWindow, number> }> {
    const now = new Date(nowMs);
    // Every day that still has raw plays is recounted (the repository keeps the fuller count).
    const statsRows = await this.plays.rollUp(utcDay(nowMs - RAW_RETENTION_MS));
    const [day, week] = await Promise.all([
      this.plays.decayedFromEvents(new Date(nowMs - DAY_MS), now, HALF_LIFE_SECONDS),
      this.plays.decayedFromDays(utcDay(nowMs - 6 * DAY_MS), now, HALF_LIFE_SECONDS),
    ]);
    await this.plays.storeTrending('day', day, now);
    await this.plays.storeTrending('week', week, now);
    const pruned = await this.plays.prune(new Date(nowMs - RAW_RETENTION_MS));
    return { statsRows, pruned, trending: { day: day.length, week: week.length } };
  }

  /**
   * The trending answer as JSON, built once per rollup and track change: the stamp (read first,
   * one Redis round trip) names both, so an answer is never older than what it stands for.
   */
  async trendingJson(window: TrendingWindow, limit: number): Promise<string> {
    const stamp = await this.plays.trendingStamp(window);
    const key = `${window}:${limit}`;
    const hit = this.built.get(key);
    if (hit?.stamp === stamp) return hit.json;
    const json = JSON.stringify(await this.trending(window, limit));
    this.built.set(key, { stamp, json });
    return json;
  }

  async trending(window: TrendingWindow, limit: number) {
    const { computedAt, scores } = await this.plays.readTrending(window, limit);
    const tracks = await this.tracks.visibilities(scores.map((s) => s.trackId));
    return {
      window,
      half_life_hours: HALF_LIFE_SECONDS / 3600,
      computed_at: computedAt,
      items: scores.flatMap((s) => {
        const track = tracks.get(s.trackId);
        // A track made private since the last rollup drops out at once.
        return track && maySee('list', undefined, track)
          ? [{ track: trackSummaryView(track), score: s.score }]
          : [];
      }),
    };
  }
}
