/**
 * The one <audio> element of the app: it lives outside the routed page, so every page change
 * leaves it playing. Loads a track's current version (the browser's own HLS, else hls.js's light
 * build loaded only then, else the progressive file), applies the normalised volume, and posts a
 * play once per load on its first `playing`.
 */
import type Hls from 'hls.js/light';
import { h } from '../../shared/dom';
import { api, type TrackPage, type Version } from './api';
import type { QueueItem } from './queue-store';

/** No native controls: the player bar's volume is the one volume (docs/web.md). */
export const audio = h('audio', { preload: 'metadata', 'data-testid': 'audio' });

export interface Loaded {
  item: QueueItem;
  track: TrackPage;
  version: Version;
}

let loaded: Loaded | undefined;
let hls: Hls | undefined;
let volume = 1;
let normalise = true;
/** Each load gets a number: an older load that finishes late does not replace a newer one. */
let generation = 0;
/** Fired on `audio` when another track is loaded (the bar, media session and pages redraw). */
export const TRACK_EVENT = 'music:track';

export function current(): Loaded | undefined {
  return loaded;
}

function gainFactor(version: Version): number {
  const db = version.loudness?.replay_gain_db;
  // Loud tracks are turned down; quiet ones cannot go above full volume.
  return db === null || db === undefined ? 1 : Math.min(1, 10 ** (db / 20));
}

function applyVolume(): void {
  audio.volume = Math.min(1, Math.max(0, volume * (normalise && loaded ? gainFactor(loaded.version) : 1)));
}

export function setVolume(v: number, normaliseOn = normalise): void {
  volume = v;
  normalise = normaliseOn;
  applyVolume();
}

export function volumeSettings(): { volume: number; normalise: boolean } {
  return { volume, normalise };
}

/**
 * Loads `item` (its page answer when the caller has it) and starts it at `startAt` seconds;
 * `play: false` only cues it (a restored queue after a reload). Returns false when the track has
 * no playable version (private now, deleted, still processing).
 */
export async function load(
  item: QueueItem,
  options: { track?: TrackPage; play: boolean; startAt?: number },
): Promise<boolean> {
  const mine = ++generation;
  const track = options.track ?? (await api<TrackPage>(`/tracks/${encodeURIComponent(item.id)}`));
  if (mine !== generation) return false;
  const version = track.current_version;
  if (!version || (!version.hls_url && !version.progressive_url)) return false;
  hls?.destroy();
  hls = undefined;
  audio.removeAttribute('src');
  let engine = 'progressive';
  if (version.hls_url && audio.canPlayType('application/vnd.apple.mpegurl')) {
    audio.src = version.hls_url;
    engine = 'native-hls';
  } else if (version.hls_url) {
    const { default: HlsJs } = await import('hls.js/light');
    if (mine !== generation) return false;
    if (HlsJs.isSupported()) {
      // No worker: the seed's CSP allows no blob: workers (docs/web.md).
      hls = new HlsJs({ enableWorker: false });
      hls.loadSource(version.hls_url);
      hls.attachMedia(audio);
      engine = 'hls.js';
    } else if (version.progressive_url) audio.src = version.progressive_url;
  } else if (version.progressive_url) audio.src = version.progressive_url;
  audio.dataset.engine = engine;
  audio.dataset.version = version.id;
  audio.dataset.track = track.id;
  const cover = version.artwork_url ?? item.coverUrl;
  loaded = {
    item: {
      ...item,
      title: track.title,
      coverUrl: cover,
      durationSeconds: version.duration_ms ? version.duration_ms / 1000 : item.durationSeconds,
    },
    track,
    version,
  };
  counted = false;
  applyVolume();
  const startAt = options.startAt ?? 0;
  if (startAt > 0) {
    const seek = (): void => {
      audio.currentTime = startAt;
    };
    if (audio.readyState >= 1) seek();
    else audio.addEventListener('loadedmetadata', seek, { once: true });
  }
  audio.dispatchEvent(new Event(TRACK_EVENT));
  if (options.play) await audio.play().catch(() => undefined);
  return true;
}

let counted = false;
audio.addEventListener('playing', () => {
  const now = loaded;
  if (counted || !now) return;
  counted = true;
  void api('/analytics/plays', {
    method: 'POST',
    body: JSON.stringify({
      track_id: now.track.id,
      version_id: now.version.id,
      position_ms: Math.round(audio.currentTime * 1000),
    }),
  }).then(
    () => audio.dispatchEvent(new CustomEvent('music:played', { detail: now.track.id })),
    () => (counted = false),
  );
});

/** Play or pause whatever is loaded. */
export function toggle(): void {
  if (!loaded) return;
  if (audio.paused) void audio.play().catch(() => undefined);
  else audio.pause();
}

export function seekTo(seconds: number): void {
  if (!loaded) return;
  const end = Number.isFinite(audio.duration) ? audio.duration : (loaded.item.durationSeconds ?? 0);
  audio.currentTime = Math.max(0, Math.min(end || 0, seconds));
}
