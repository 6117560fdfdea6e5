/**
 * The one <audio> element of the app: it lives outside the routed page, so every page change
 * leaves it playing. Loads a track's current version (the browser's own HLS, else hls.js's light
 * build loaded only then, else the progressive file), applies the normalised volume, and posts a
 * play once per load on its first `playing`. A media error (offline a moment, a link that
 * expired during a long pause, a session ended elsewhere) loads the track again where it was.
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
/** The listener wants sound (Play pressed, not paused since): a reload after an error resumes then. */
let wanted = false;
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
  options: { track?: TrackPage; play: boolean; startAt?: number; again?: boolean },
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
      // hls.js retries on its own; a fatal error is the element's error of the browser's own HLS.
      hls.on(HlsJs.Events.ERROR, (_event, data) => {
        if (data.fatal && loaded) void recover(loaded);
      });
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
  // The same listening loaded again after an error is not a second play.
  if (!options.again) counted = false;
  wanted = options.play;
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

/** Play or pause whatever is loaded; Play after a media error loads the track again. */
export function toggle(): void {
  if (!loaded) return;
  if (audio.paused) play();
  else pause();
}

export function play(): void {
  if (!loaded) return;
  wanted = true;
  if (audio.error) void recover(loaded, true);
  else void audio.play().catch(() => undefined);
}

export function pause(): void {
  wanted = false;
  audio.pause();
}

/** Fired on `audio` when what the player tells the listener changes (mediaProblem()). */
export const PROBLEM_EVENT = 'music:problem';
let problem = '';

/** Why nothing plays when the listener asked for sound (empty while all is well). */
export function mediaProblem(): string {
  return problem;
}

function say(text: string): void {
  problem = text;
  audio.dispatchEvent(new Event(PROBLEM_EVENT));
}

const RETRIES = 3;
let failures = 0;
/** The load a recovery runs for: one at a time per load. */
let recovering: Loaded | undefined;

/**
 * The loaded track again at its position, with fresh links: after the connection is back when
 * offline, else after 1, 2 and 3 s; then the listener is told, and Play (or the connection
 * coming back) tries again.
 */
async function recover(from: Loaded, asked = false): Promise<void> {
  if (recovering === from) return;
  recovering = from;
  if (asked) failures = 0;
  const at = audio.currentTime;
  while (loaded === from) {
    if (!navigator.onLine) {
      say('Offline: the track goes on when the connection is back.');
      await new Promise((resolve) => window.addEventListener('online', resolve, { once: true }));
    } else if (failures >= RETRIES) {
      say('The track stopped: it cannot be reached just now. Press Play to try again.');
      recovering = undefined;
      // A connection the browser sees come back is a try of its own.
      window.addEventListener('online', () => void (loaded === from && audio.error && recover(from, true)), {
        once: true,
      });
      return;
    } else {
      say('The connection dropped: reconnecting…');
      await new Promise((resolve) => setTimeout(resolve, 1000 * ++failures));
    }
    if (loaded !== from) return;
    if (await load(from.item, { play: wanted, startAt: at, again: true }).catch(() => false)) return;
  }
}

audio.addEventListener('error', () => {
  if (loaded) void recover(loaded);
});
audio.addEventListener('playing', () => {
  failures = 0;
  if (problem) say('');
});

export function seekTo(seconds: number): void {
  if (!loaded) return;
  const end = Number.isFinite(audio.duration) ? audio.duration : (loaded.item.durationSeconds ?? 0);
  audio.currentTime = Math.max(0, Math.min(end || 0, seconds));
}
