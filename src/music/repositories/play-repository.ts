/** Raw plays, daily stats and the trending sets (Redis sorted sets). */
import type { Redis } from 'ioredis';
import type { PrismaClient } from './prisma.js';
import { trackColumns, visibleSql } from './visibility-sql.js';

export interface DecayedScore {
  trackId: string;
  score: number;
}

export interface PlayRepository {
  /** true when this listener's play of this track was not seen in the last `windowSeconds`. */
  firstPlayInWindow(trackId: string, listenerHash: string, windowSeconds: number): Promise<boolean>;
  insert(play: {
    trackId: string;
    versionId: string;
    listenerHash: string;
    positionMs: number | null;
    day: Date;
    occurredAt: Date;
  }): Promise<void>;
  /**
   * Recomputes the daily stats of every day from `fromDay` on out of the raw events. A day
   * whose oldest plays were already pruned recounts lower: GREATEST keeps the fuller count.
   */
  rollUp(fromDay: Date): Promise<number>;
  prune(before: Date): Promise<number>;
  /** Σ 2^(-age/halfLife) over raw plays since `since`, public tracks only. */
  decayedFromEvents(since: Date, now: Date, halfLifeSeconds: number): Promise<DecayedScore[]>;
  /** Daily plays weighted by the decay at each day's midpoint, public tracks only. */
  decayedFromDays(fromDay: Date, now: Date, halfLifeSeconds: number): Promise<DecayedScore[]>;
  /** Replaces a trending set in one step (written under a temporary key, then renamed). */
  storeTrending(window: string, scores: DecayedScore[], computedAt: Date): Promise<void>;
  readTrending(window: string, limit: number): Promise<{ computedAt: string | null; scores: DecayedScore[] }>;
  /** Counts changes to tracks (title, visibility, deletion) that a built trending answer may show. */
  trackChanged(): Promise<void>;
  /** Which rollup a trending set is from and how many track changes came since: a built answer's key. */
  trendingStamp(window: string): Promise<string>;
}

export class PrismaPlayRepository implements PlayRepository {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly redis: Redis,
    private readonly keyPrefix: string,
  ) {}

  /** true when this listener's play of this track was not seen in the last `windowSeconds`. */
  async firstPlayInWindow(trackId: string, listenerHash: string, windowSeconds: number): Promise<boolean> {
    const set = await this.redis.set(
      `${this.keyPrefix}play:${trackId}:${listenerHash}`,
      '1',
      'EX',
      windowSeconds,
      'NX',
    );
    return set === 'OK';
  }

  async insert(play: {
    trackId: string;
    versionId: string;
    listenerHash: string;
    positionMs: number | null;
    day: Date;
    occurredAt: Date;
  }): Promise<void> {
    await this.prisma.playEvent.create({ data: play });
  }

  /**
   * Recomputes the daily stats of every day from `fromDay` on out of the raw events. A day
   * whose oldest plays were already pruned recounts lower: GREATEST keeps the fuller count.
   */
  async rollUp(fromDay: Date): Promise<number> {
    return this.prisma.$executeRaw`
      INSERT INTO track_daily_stats (track_id, version_id, day, plays, unique_listeners)
      SELECT track_id, version_id, day, count(*)::int, count(DISTINCT listener_hash)::int
      FROM play_events WHERE day >= ${fromDay}::date
      GROUP BY track_id, version_id, day
      ON CONFLICT (track_id, version_id, day)
      DO UPDATE SET plays = GREATEST(track_daily_stats.plays, EXCLUDED.plays),
        unique_listeners = GREATEST(track_daily_stats.unique_listeners, EXCLUDED.unique_listeners)`;
  }

  prune(before: Date): Promise<number> {
    return this.prisma.$executeRaw`DELETE FROM play_events WHERE occurred_at < ${before}`;
  }

  /** Σ 2^(-age/halfLife) over raw plays since `since`, public tracks only. */
  decayedFromEvents(since: Date, now: Date, halfLifeSeconds: number): Promise<DecayedScore[]> {
    return this.prisma.$queryRaw<DecayedScore[]>`
      SELECT e.track_id AS "trackId",
             sum(power(2, -extract(epoch FROM (${now}::timestamptz - e.occurred_at)) / ${halfLifeSeconds}))::float8 AS score
      FROM play_events e JOIN tracks t ON t.id = e.track_id
      WHERE ${visibleSql('list', undefined, trackColumns('t'))} AND e.occurred_at >= ${since} AND e.occurred_at <= ${now}
      GROUP BY e.track_id`;
  }

  /** Daily plays weighted by the decay at each day's midpoint, public tracks only. */
  decayedFromDays(fromDay: Date, now: Date, halfLifeSeconds: number): Promise<DecayedScore[]> {
    return this.prisma.$queryRaw<DecayedScore[]>`
      SELECT s.track_id AS "trackId",
             sum(s.plays * power(2, -greatest(0, extract(epoch FROM (${now}::timestamptz - (s.day::timestamp AT TIME ZONE 'UTC' + interval '12 hours')))) / ${halfLifeSeconds}))::float8 AS score
      FROM track_daily_stats s JOIN tracks t ON t.id = s.track_id
      WHERE ${visibleSql('list', undefined, trackColumns('t'))} AND s.day >= ${fromDay}::date
      GROUP BY s.track_id`;
  }

  /** Replaces a trending set in one step (written under a temporary key, then renamed). */
  async storeTrending(window: string, scores: DecayedScore[], computedAt: Date): Promise<void> {
    const key = `${this.keyPrefix}trending:${window}`;
    const tmp = `${key}:tmp`;
    const multi = this.redis.multi().del(tmp);
    if (scores.length > 0) multi.zadd(tmp, ...scores.flatMap((s) => [s.score, s.trackId]));
    multi.hset(`${key}:meta`, 'computed_at', computedAt.toISOString());
    // Two rollups may share a computed_at (an injected clock): a counter marks each one.
    multi.hincrby(`${key}:meta`, 'run', 1);
    if (scores.length > 0) multi.rename(tmp, key);
    else multi.del(key);
    await multi.exec();
  }

  async readTrending(
    window: string,
    limit: number,
  ): Promise<{ computedAt: string | null; scores: DecayedScore[] }> {
    const key = `${this.keyPrefix}trending:${window}`;
    const [flat, computedAt] = await Promise.all([
      this.redis.zrevrange(key, 0, limit - 1, 'WITHSCORES'),
      this.redis.hget(`${key}:meta`, 'computed_at'),
    ]);
    const scores: DecayedScore[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2)
      scores.push({ trackId: flat[i] ?? '', score: Number(flat[i + 1]) });
    return { computedAt, scores };
  }

  /** Counts changes to tracks (title, visibility, deletion) that a built trending answer may show. */
  async trackChanged(): Promise<void> {
    await this.redis.incr(`${this.keyPrefix}tracks:changes`);
  }

  /** Which rollup a trending set is from and how many track changes came since: a built answer's key. */
  async trendingStamp(window: string): Promise<string> {
    const [run, changes] = await Promise.all([
      this.redis.hget(`${this.keyPrefix}trending:${window}:meta`, 'run'),
      this.redis.get(`${this.keyPrefix}tracks:changes`),
    ]);
    return `${run ?? '-'}:${changes ?? '0'}`;
  }
}
