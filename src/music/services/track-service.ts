/**
 * Tracks and versions. Who sees what: public and unlisted tracks to anyone, private ones to
 * their owner and admins; a track one may not see is a 404 (never 403), so ids do not leak.
 * Changing or deleting a visible track that is not one's own is a 403. See docs/music-domain.md.
 */
import { durationSeconds } from './track-list-item.js';
import { NO_EVENTS, publishQuietly, type EventPublisher } from './live-events.js';
import { decodeCursor, encodeCursor } from './page-cursor.js';
import { isUuid } from '../uuid.js';
import type { AuthContext } from '../auth-context.js';
import type { Visibility } from './visibility-policy.js';
import type { AssetRepository } from '../repositories/asset-repository.js';
import type { ObjectStores } from '../repositories/object-store/object-store.js';
import type {
  TrackRepository,
  TrackSummary,
  VersionRecord,
  VersionTagColumns,
} from '../repositories/track-repository.js';
import type { FlowOptions, VersionFlowStarter } from '../jobs/flow.js';
import type { MediaJobData } from '../jobs/queues.js';
import type { AudioProbe, AudioTags } from '../ffmpeg-commands/probe.js';
import { mayManage, maySee } from './visibility-policy.js';
import {
  inheritedTags,
  shownVersion,
  tagColumns,
  trackSummaryView,
  trackView,
  versionView,
  type MediaSigner,
  type VersionView,
} from './track-views.js';
import {
  currentVersionNotReady,
  noCompletedUpload,
  tagsNeedVersion,
  tooManyVersionsInFlight,
  trackChangeForbidden,
  trackNotFound,
  uploadAlreadyVersion,
  versionNotOfTrack,
} from '../errors/tracks.js';

/**
 * An account's versions from uploads waiting for or in the media pipeline at once (each is a full
 * transcode, waveform, loudness and artwork flow): enough for an album uploaded file after file,
 * few enough that one account cannot fill the queues other people's uploads wait in. The next add
 * is a 429 with Retry-After (a version takes tens of seconds to process).
 */
export const VERSION_LIMITS = { inFlightPerUser: 10, retryAfterSeconds: 30 } as const;

/**
 * The columns a version takes from its original's probe: facts and tags. Uploads and the
 * library import both make versions with it (the one tag-to-version mapping; tagColumns names the columns).
 */
export function versionFields(probe: AudioProbe | null, shown?: VersionTagColumns) {
  return {
    durationMs: probe?.duration_ms ?? null,
    codec: probe?.codec ?? null,
    bitRate: probe?.bit_rate ?? null,
    channels: probe?.channels ?? null,
    sampleRate: probe?.sample_rate ?? null,
    // A track's shown tags win; the new file fills only what they lack (docs/music-domain.md).
    ...(inheritedTags(tagColumns(probe?.tags ?? {}), shown) as Required<ReturnType<typeof tagColumns>>),
  };
}

interface StartingVersion {
  id: string;
  trackId: string;
  assetId: string;
}

interface StartingItem {
  version: StartingVersion;
  sourceKey: string;
  coverKey?: string | undefined;
  /** The library import that made the version (the worker holds its jobs while it is paused). */
  importId?: string;
}

function flowData(item: StartingItem): MediaJobData {
  const { version, sourceKey, coverKey, importId } = item;
  return {
    versionId: version.id,
    trackId: version.trackId,
    assetId: version.assetId,
    sourceKey,
    ...(coverKey === undefined ? {} : { coverKey }),
    ...(importId === undefined ? {} : { importId }),
  };
}

export interface CreateTrackInput {
  title: string;
  description?: string;
  visibility?: Visibility;
}

export interface UpdateTrackInput {
  title?: string;
  description?: string;
  visibility?: Visibility;
  tags?: Partial<AudioTags>;
  current_version_id?: string;
}

/** Told after a track's title, description or visibility changed or it was deleted (trending's answers). */
export interface TrackChanges {
  trackChanged(): Promise<void>;
}

/** Reading a track by its id: the visibility policy's `read` access (visibility-policy.ts). */
export function canSee(track: TrackSummary, auth: AuthContext | undefined): boolean {
  return maySee('read', auth, track);
}

export class TrackService {
  constructor(
    private readonly tracks: TrackRepository,
    private readonly assets: AssetRepository,
    private readonly stores: ObjectStores,
    private readonly flows: VersionFlowStarter,
    private readonly signer: MediaSigner,
    private readonly changes: TrackChanges,
    private readonly events: EventPublisher = NO_EVENTS,
  ) {}

  /** The track if `auth` may see it, else a 404. */
  async visible(auth: AuthContext | undefined, id: string): Promise<TrackSummary> {
    if (!isUuid(id)) throw trackNotFound();
    const track = await this.tracks.findById(id.toLowerCase());
    if (!track || !canSee(track, auth)) throw trackNotFound();
    return track;
  }

  private async changeable(auth: AuthContext, id: string, ownerOnly = false): Promise<TrackSummary> {
    const track = await this.visible(auth, id);
    const allowed = ownerOnly ? auth.userId === track.ownerUserId : mayManage(auth, track);
    if (!allowed) throw trackChangeForbidden(ownerOnly);
    return track;
  }

  async create(auth: AuthContext, input: CreateTrackInput) {
    const track = await this.tracks.create({
      ownerUserId: auth.userId,
      title: input.title.trim(),
      description: input.description ?? '',
      visibility: input.visibility ?? 'public',
    });
    return trackView(track, [], this.signer, true);
  }

  /** The track as its page shows it: with its owner, artist, album and counts of plays and comments. */
  async get(auth: AuthContext | undefined, id: string) {
    const found = isUuid(id) ? await this.tracks.findWithVersions(id.toLowerCase()) : undefined;
    if (!found || !canSee(found.track, auth)) throw trackNotFound();
    const view = trackView(found.track, found.versions, this.signer, mayManage(auth, found.track));
    const context = await this.tracks.context(found.track.id, view.current_version?.id ?? null, auth?.userId);
    return {
      ...view,
      owner: { handle: context?.ownerHandle ?? '', display_name: context?.ownerDisplayName ?? '' },
      artist: context?.artistId ? { id: context.artistId, name: context.artist } : null,
      album: context?.albumId ? { id: context.albumId, name: context.album } : null,
      counts: { plays: context?.plays ?? 0, comments: context?.comments ?? 0 },
      // The caller may download it: they bought it, or it is theirs (the page says "You own this").
      owned: auth !== undefined && (auth.userId === found.track.ownerUserId || (context?.bought ?? false)),
    };
  }

  /** Every track of the caller, private ones included, newest first, each with its state. */
  async mine(auth: AuthContext, page: { limit: number; cursor?: string }) {
    const cursor = page.cursor === undefined ? undefined : decodeCursor(page.cursor);
    const rows = await this.tracks.listByOwner(auth.userId, page.limit + 1, cursor);
    const items = rows.slice(0, page.limit);
    const last = items[items.length - 1];
    return {
      items: items.map(({ versions, ...track }) => {
        const view = trackView(track, versions, this.signer, true);
        const shown = view.current_version;
        return {
          ...view,
          version_count: versions.length,
          duration_seconds: durationSeconds(shown?.duration_ms ?? null),
          cover_url: shown?.artwork_url ?? null,
        };
      }),
      next_cursor: rows.length > page.limit && last ? encodeCursor(last) : null,
    };
  }

  async update(auth: AuthContext, id: string, input: UpdateTrackInput) {
    const existing = await this.changeable(auth, id);
    const { tags, current_version_id: currentId, ...fields } = input;
    let versions = await this.tracks.listVersions(existing.id);
    if (currentId !== undefined) {
      const chosen = versions.find((v) => v.id === currentId.toLowerCase());
      if (!chosen || chosen.status !== 'ready') {
        throw currentVersionNotReady();
      }
    }
    const changed = Object.keys(fields).length > 0;
    let track = changed ? await this.tracks.update(existing.id, fields) : existing;
    if (currentId !== undefined)
      track = await this.tracks.setCurrentVersion(track.id, currentId.toLowerCase());
    if (changed || currentId !== undefined) await this.changes.trackChanged();
    if (tags !== undefined) {
      const shown = trackView(track, versions, this.signer, true);
      const target = versions.find((v) => v.id === (shown.current_version?.id ?? versions[0]?.id));
      if (!target) {
        throw tagsNeedVersion();
      }
      await this.tracks.updateVersionTags(target.id, tagColumns(tags));
      versions = await this.tracks.listVersions(track.id);
    }
    return trackView(track, versions, this.signer, true);
  }

  /** The track, its versions, and every stored object they alone use. */
  async delete(auth: AuthContext, id: string): Promise<void> {
    const track = await this.changeable(auth, id);
    const versions = await this.tracks.delete(track.id);
    await this.changes.trackChanged();
    for (const v of versions) {
      for (const key of await this.stores.transcodes.list(`${v.id}/`))
        await this.stores.transcodes.delete(key);
      if (v.progressiveKey) await this.stores.transcodes.delete(v.progressiveKey);
      // Every size and format under the version (cover-300 and waveform.dat beside the keys named).
      for (const store of [this.stores.waveforms, this.stores.images])
        for (const key of await store.list(`${v.id}/`)) await store.delete(key);
    }
    for (const assetId of new Set(versions.map((v) => v.assetId))) {
      if ((await this.tracks.countVersionsOfAsset(assetId)) > 0) continue;
      const asset = await this.assets.findById(assetId);
      if (asset) await this.stores.originals.delete(asset.objectKey);
      await this.tracks.deleteAsset(assetId);
    }
  }

  /** The library import's --prune: the owner's track deleted as its owner would (delete above). */
  async deleteAsOwner(ownerUserId: string, trackId: string): Promise<void> {
    const track = await this.tracks.findById(trackId);
    if (!track || track.ownerUserId !== ownerUserId) return;
    await this.delete({ userId: ownerUserId, handle: '', role: 'user', jti: '', exp: 0 }, trackId);
  }

  /**
   * A new version in `pending` from one of the owner's uploaded assets, its flow enqueued: an
   * upload backs one version, and an account has at most VERSION_LIMITS.inFlightPerUser in processing.
   */
  async addVersion(auth: AuthContext, trackId: string, assetId: string): Promise<VersionView> {
    const track = await this.changeable(auth, trackId, true);
    const asset = isUuid(assetId) ? await this.assets.findById(assetId.toLowerCase()) : undefined;
    if (!asset || asset.ownerUserId !== auth.userId || asset.status !== 'uploaded') {
      throw noCompletedUpload();
    }
    const probe = asset.probe as unknown as AudioProbe | null;
    const shown = shownVersion(track, await this.tracks.listVersions(track.id));
    const version = await this.tracks.createVersion(
      { trackId: track.id, assetId: asset.id, ...versionFields(probe, shown) },
      { userId: auth.userId, maxInFlight: VERSION_LIMITS.inFlightPerUser },
    );
    if ('refused' in version) {
      throw version.refused === 'asset-used'
        ? uploadAlreadyVersion(version.version)
        : tooManyVersionsInFlight(VERSION_LIMITS.inFlightPerUser, VERSION_LIMITS.retryAfterSeconds);
    }
    await this.startVersion(auth.userId, version, asset.objectKey);
    return versionView(version, this.signer, true);
  }

  /**
   * A new version's processing: `version.queued` to its owner, then its flow. Uploads
   * (addVersion) and the library import (services/library/) both start versions here.
   */
  async startVersion(
    ownerUserId: string,
    version: StartingVersion,
    sourceKey: string,
    extra: { coverKey?: string } & FlowOptions = {},
  ): Promise<void> {
    const { coverKey, ...options } = extra;
    await this.versionsQueued(ownerUserId, [version]);
    await this.flows.start(flowData({ version, sourceKey, coverKey }), options);
  }

  /** Many versions' processing (a library import's batch): the events, then the flows in one round trip. */
  async startVersions(ownerUserId: string, items: StartingItem[], options: FlowOptions = {}): Promise<void> {
    await this.versionsQueued(
      ownerUserId,
      items.map((i) => i.version),
    );
    await this.flows.startMany(items.map(flowData), options);
  }

  /** Before the flows start, so `queued` precedes every step the worker publishes. */
  private async versionsQueued(ownerUserId: string, versions: StartingVersion[]): Promise<void> {
    await Promise.all(
      versions.map((v) =>
        publishQuietly(this.events, ownerUserId, {
          type: 'version.queued',
          data: { track_id: v.trackId, version_id: v.id },
        }),
      ),
    );
  }

  /** The tags a track shows now (its shown version's), which a new version of it keeps (versionFields). */
  async shownTags(trackId: string): Promise<VersionTagColumns | undefined> {
    const track = await this.tracks.findById(trackId);
    return track ? shownVersion(track, await this.tracks.listVersions(trackId)) : undefined;
  }

  /**
   * The version a comment's time refers to: the one it names (a version of this track, else a
   * 400), or the version the track shows now; undefined while the track has none ready.
   */
  async commentVersion(track: TrackSummary, versionId?: string): Promise<VersionRecord | undefined> {
    const versions = await this.tracks.listVersions(track.id);
    if (versionId === undefined) return shownVersion(track, versions);
    const named = versions.find((v) => v.id === versionId.toLowerCase());
    if (!named) {
      throw versionNotOfTrack();
    }
    return named;
  }

  async listVersions(auth: AuthContext | undefined, trackId: string) {
    const track = await this.visible(auth, trackId);
    const versions = await this.tracks.listVersions(track.id);
    return {
      track: trackSummaryView(track),
      items: versions.map((v) => versionView(v, this.signer, mayManage(auth, track))),
    };
  }
}
