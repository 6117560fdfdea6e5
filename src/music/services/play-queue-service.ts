/**
 * The saved play queue: one per user, the row Subsonic's savePlayQueue/getPlayQueue keep, read and
 * written by the web player over REST (/api/v1/me/play-queue), so a queue saved by one device or
 * app is the one another continues. Reading drops the tracks the caller may not play now (the
 * library's visibility rule, as getPlayQueue); writing names the ids that are not tracks they may play.
 */
import { cutText } from '../../core/text-length.js';
import type { AuthContext } from '../auth-context.js';
import type { SongRow, Viewer as LibraryViewer } from '../repositories/subsonic/library-model.js';
import {
  queueCurrentMismatch,
  queueCurrentNotQueued,
  tooManyQueueTracks,
  unknownQueueTracks,
} from '../errors/play-queue.js';
import { isUuid } from '../uuid.js';
import { deviceName } from './device-name.js';
import { PLAY_QUEUE_LIMITS } from './play-queue-limits.js';
import { trackListItem } from './track-list-item.js';

export interface SavedPlayQueue {
  trackIds: string[];
  currentIndex: number | null;
  positionMs: bigint;
  changedBy: string;
  updatedAt: Date;
}

export interface PlayQueueStore {
  playQueue(userId: string): Promise<SavedPlayQueue | null>;
  savePlayQueue(
    userId: string,
    queue: { trackIds: string[]; currentIndex: number | null; positionMs: number; changedBy: string },
  ): Promise<void>;
  clearPlayQueue(userId: string): Promise<void>;
}

export interface PlayQueueSongs {
  songsByIds(v: LibraryViewer, ids: string[]): Promise<SongRow[]>;
}

/** The REST body of PUT /api/v1/me/play-queue (schemas/play-queue.ts). */
export interface PlayQueueBody {
  track_ids: string[];
  current_id?: string | null;
  current_index?: number | null;
  position_ms?: number;
  client?: string;
}

const viewerOf = (auth: AuthContext): LibraryViewer => ({ userId: auth.userId, role: auth.role });

/**
 * The saved queue as its reader may play it now (REST read and Subsonic getPlayQueue alike): the
 * songs of `byId` in queue order, and the current one's place among them, -1 when there is none
 * or it is hidden now (a position then belongs to no track).
 */
export function visibleQueue(
  q: Pick<SavedPlayQueue, 'trackIds' | 'currentIndex'>,
  byId: ReadonlyMap<string, SongRow>,
): { songs: SongRow[]; at: number } {
  const kept = q.trackIds.map((id, i) => [byId.get(id), i] as const).filter(([s]) => s !== undefined);
  const at = q.currentIndex === null ? -1 : kept.findIndex(([, i]) => i === q.currentIndex);
  return { songs: kept.map(([s]) => s!), at };
}

const NO_QUEUE = {
  track_ids: [] as string[],
  current_id: null,
  current_index: null,
  position_ms: 0,
  changed_at: null,
  changed_by: null,
  tracks: [] as ReturnType<typeof trackListItem>[],
};

export class PlayQueueService {
  constructor(
    private readonly store: PlayQueueStore,
    private readonly songs: PlayQueueSongs,
  ) {}

  /** The caller's saved queue: the tracks they may play now, in order; the current one if it is among them. */
  async read(auth: AuthContext) {
    const q = await this.store.playQueue(auth.userId);
    if (!q) return NO_QUEUE;
    const byId = new Map(
      (await this.songs.songsByIds(viewerOf(auth), [...new Set(q.trackIds)])).map((s) => [s.id, s]),
    );
    const { songs, at } = visibleQueue(q, byId);
    return {
      track_ids: songs.map((s) => s.id),
      current_id: at < 0 ? null : songs[at]!.id,
      current_index: at < 0 ? null : at,
      position_ms: at < 0 ? 0 : Number(q.positionMs),
      changed_at: q.updatedAt.toISOString(),
      changed_by: q.changedBy,
      tracks: songs.map(trackListItem),
    };
  }

  /**
   * Replaces the caller's queue (an empty one clears it); `userAgent` names the client when the
   * body does not. Answers the queue as read back.
   */
  async save(auth: AuthContext, body: PlayQueueBody, userAgent: string | undefined) {
    const ids = await this.checkedTrackIds(auth, body.track_ids);
    const currentIndex = currentOf(ids, body.current_id ?? null, body.current_index ?? null);
    if (ids.length === 0) {
      await this.store.clearPlayQueue(auth.userId);
      return NO_QUEUE;
    }
    await this.store.savePlayQueue(auth.userId, {
      trackIds: ids,
      currentIndex,
      positionMs: currentIndex === null ? 0 : (body.position_ms ?? 0),
      changedBy: cutText(body.client?.trim() || deviceName(userAgent), PLAY_QUEUE_LIMITS.clientLength),
    });
    return this.read(auth);
  }

  /** Each id a track the caller may play (as they read them), at most PLAY_QUEUE_LIMITS.tracks. */
  private async checkedTrackIds(auth: AuthContext, ids: string[]): Promise<string[]> {
    if (ids.length > PLAY_QUEUE_LIMITS.tracks) throw tooManyQueueTracks(PLAY_QUEUE_LIMITS.tracks, ids.length);
    const wellFormed = [...new Set(ids.filter(isUuid).map((id) => id.toLowerCase()))];
    const found = new Set((await this.songs.songsByIds(viewerOf(auth), wellFormed)).map((s) => s.id));
    const unknown = [...new Set(ids.filter((id) => !isUuid(id) || !found.has(id.toLowerCase())))];
    if (unknown.length > 0) throw unknownQueueTracks(unknown);
    return ids.map((id) => id.toLowerCase());
  }
}

/** The current entry's place: current_index (a repeated track's own place) or current_id's first. */
function currentOf(ids: string[], currentId: string | null, currentIndex: number | null): number | null {
  if (currentIndex !== null) {
    if (currentIndex >= ids.length) throw queueCurrentNotQueued('/current_index', ids.length);
    if (currentId !== null && ids[currentIndex] !== currentId.toLowerCase()) throw queueCurrentMismatch();
    return currentIndex;
  }
  if (currentId === null) return null;
  const at = ids.indexOf(currentId.toLowerCase());
  if (at < 0) throw queueCurrentNotQueued('/current_id', ids.length);
  return at;
}
