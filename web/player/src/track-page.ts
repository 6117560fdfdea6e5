/**
 * A track: its context (cover, artist, album, year, genre, date, counts); while a version
 * transcodes, its processing state (polled); the player (hls.js where the browser has no HLS of
 * its own), the waveform seek bar, one ReplayGain-normalised volume; comments; and for its owner,
 * the tools to manage it. Each part loads and fails on its own: a failing part never takes the
 * player down.
 */
import type Hls from 'hls.js/light';
import { h, clear } from '../../shared/dom';
import { ProblemError } from '../../shared/http';
import { api, clock, problemText, session, type TrackPage, type Version } from './api';
import { liveOpen, stepList } from './live';
import { commentsPart } from './comments';
import { managePart } from './track-manage';
import { paymentPart } from './payments';
import { waveformView, type WaveformView } from './waveform';

let teardown: (() => void) | undefined;

export function leaveTrack(): void {
  teardown?.();
  teardown = undefined;
}

export async function renderTrack(app: HTMLElement, id: string, go: (path: string) => void): Promise<void> {
  leaveTrack();
  let track: TrackPage;
  try {
    track = await api<TrackPage>(`/tracks/${encodeURIComponent(id)}`);
  } catch (err) {
    const gone = err instanceof ProblemError && err.problem.status === 404;
    clear(
      app,
      h('h1', {}, 'Track'),
      h('p', { class: 'error', role: 'alert' }, gone ? 'No such track, or it is private.' : problemText(err)),
    );
    return;
  }
  document.title = `${track.title} · Music`;
  const cleanups: (() => void)[] = [];
  teardown = () => cleanups.forEach((f) => f());
  const reload = (): void => void renderTrack(app, id, go);
  const body = h('div', {});
  const mine = session()?.handle === track.owner.handle;
  clear(app, trackHead(track), paymentPart(track, mine), body);
  const processing = processingNotice(track, id, reload, cleanups);
  const version = track.current_version;
  if (!version) {
    clear(body, processing ?? h('p', { class: 'notice' }, 'This track has no audio yet.'));
    if (mine) body.append(managePart(track, reload, go));
    return;
  }
  const player = await renderPlayer(track, version, cleanups);
  const comments = commentsPart(track, version, player.audio, player.wave, mine);
  clear(body, processing, player.element, comments);
  if (mine) body.append(managePart(track, reload, go));
}

function trackHead(track: TrackPage): HTMLElement {
  const tags = track.tags;
  const year = tags?.date ?? (tags?.year ? String(tags.year) : null);
  const facts: (Node | string)[] = [];
  if (track.album) facts.push('from ', h('a', { href: `/albums/${track.album.id}` }, track.album.name));
  if (year) facts.push(`${facts.length ? ' · ' : ''}${year}`);
  if (tags?.genre) facts.push(`${facts.length ? ' · ' : ''}${tags.genre}`);
  const cover = track.current_version?.artwork_url;
  return h(
    'div',
    { class: 'track-head' },
    cover
      ? h('img', { src: cover, alt: `Cover of ${track.title}`, class: 'cover', width: 300, height: 300 })
      : null,
    h(
      'div',
      { class: 'track-facts' },
      h('h1', {}, track.title),
      h(
        'p',
        { class: 'byline', 'data-testid': 'artist' },
        'by ',
        track.artist
          ? h('a', { href: `/artists/${track.artist.id}` }, track.artist.name)
          : h('a', { href: `/users/${track.owner.handle}` }, track.owner.display_name || track.owner.handle),
      ),
      facts.length ? h('p', { 'data-testid': 'album' }, facts) : null,
      h(
        'p',
        { class: 'muted' },
        'Uploaded by ',
        h('a', { href: `/users/${track.owner.handle}` }, `@${track.owner.handle}`),
        ` on ${new Date(track.created_at).toLocaleDateString(undefined, { dateStyle: 'long' })}`,
        track.visibility !== 'public' ? ` · ${track.visibility}` : '',
      ),
      h(
        'p',
        { 'data-testid': 'counts' },
        `${track.counts.plays} play${track.counts.plays === 1 ? '' : 's'} · ${track.counts.comments} comment${track.counts.comments === 1 ? '' : 's'}`,
      ),
      track.description ? h('p', { class: 'description' }, track.description) : null,
    ),
  );
}

/**
 * The newest version's processing state: its steps live (live.ts), or, while the live socket is
 * not open, re-read every 2 s until it is ready or failed.
 */
function processingNotice(
  track: TrackPage,
  id: string,
  reload: () => void,
  cleanups: (() => void)[],
): HTMLElement | null {
  const p = track.processing;
  if (!p) return null;
  const failed = p.status === 'failed';
  const notice = h(
    'p',
    {
      class: failed ? 'error' : 'notice',
      role: 'status',
      'data-testid': 'processing',
      'data-status': p.status,
    },
    failed
      ? `Processing version ${p.number} failed: ${p.error ?? 'unknown error'}`
      : `Processing version ${p.number} (${p.status})… ${track.current_version ? 'the current version plays meanwhile.' : 'the player appears when the audio is ready.'}`,
  );
  const wrap = h('div', { class: 'processing' }, notice);
  if (!failed) {
    const steps = stepList((d) => d.version_id === p.version_id, reload);
    wrap.append(steps.element);
    cleanups.push(steps.stop);
    let timer: ReturnType<typeof setTimeout>;
    let ticks = 0;
    const poll = (): void => {
      timer = setTimeout(() => {
        // Live: a rare check only (the version may have ended before the socket opened).
        if (liveOpen() && ++ticks % 5 !== 0) return poll();
        void api<TrackPage>(`/tracks/${encodeURIComponent(id)}`).then(
          (fresh) => (fresh.processing?.status === p.status ? poll() : reload()),
          () => poll(),
        );
      }, 2000);
    };
    poll();
    cleanups.push(() => clearTimeout(timer));
  }
  return wrap;
}

function gainFactor(version: Version): number {
  const db = version.loudness?.replay_gain_db;
  // Loud tracks are turned down; quiet ones cannot go above full volume.
  return db === null || db === undefined ? 1 : Math.min(1, 10 ** (db / 20));
}

interface Player {
  element: HTMLElement;
  audio: HTMLAudioElement;
  wave: WaveformView | undefined;
}

async function renderPlayer(track: TrackPage, version: Version, cleanups: (() => void)[]): Promise<Player> {
  // No native controls: their own volume would be a second one beside the normalised slider.
  const audio = h('audio', { preload: 'metadata', 'data-testid': 'audio', 'data-version': version.id });
  let hls: Hls | undefined;
  let engine = 'progressive';
  if (version.hls_url && audio.canPlayType('application/vnd.apple.mpegurl')) {
    audio.src = version.hls_url;
    engine = 'native-hls';
  } else if (version.hls_url) {
    // hls.js's light build (no subtitles, DRM or alternate renditions: audio only), loaded only here.
    const { default: HlsJs } = await import('hls.js/light');
    if (HlsJs.isSupported()) {
      // No worker: the seed's CSP allows no blob: workers (docs/web.md).
      hls = new HlsJs({ enableWorker: false });
      hls.loadSource(version.hls_url);
      hls.attachMedia(audio);
      engine = 'hls.js';
    } else if (version.progressive_url) audio.src = version.progressive_url;
  } else if (version.progressive_url) audio.src = version.progressive_url;
  audio.dataset.engine = engine;
  cleanups.push(() => {
    hls?.destroy();
    audio.pause();
  });

  const durationMs = version.duration_ms ?? 0;
  const play = h('button', { type: 'button', class: 'play', 'aria-label': `Play ${track.title}` }, '▶');
  const time = h('span', { class: 'time', 'aria-live': 'off' }, `0:00 / ${clock(durationMs)}`);
  const showState = (): void => {
    const playing = !audio.paused;
    play.textContent = playing ? '❚❚' : '▶';
    play.setAttribute('aria-label', `${playing ? 'Pause' : 'Play'} ${track.title}`);
  };
  play.addEventListener(
    'click',
    () => void (audio.paused ? audio.play().catch(() => undefined) : audio.pause()),
  );
  audio.addEventListener('play', showState);
  audio.addEventListener('pause', showState);
  audio.addEventListener('timeupdate', () => {
    time.textContent = `${clock(audio.currentTime * 1000)} / ${clock(durationMs)}`;
  });

  const volume = h('input', { type: 'range', min: 0, max: 1, step: 0.01, value: 1, id: 'volume' });
  const normalise = h('input', { type: 'checkbox', id: 'normalise', checked: true });
  const gain = gainFactor(version);
  const applyVolume = (): void => {
    audio.volume = Number(volume.value) * (normalise.checked ? gain : 1);
  };
  volume.addEventListener('input', applyVolume);
  normalise.addEventListener('change', applyVolume);
  applyVolume();

  let counted = false;
  audio.addEventListener('playing', () => {
    if (counted) return;
    counted = true;
    void api('/analytics/plays', {
      method: 'POST',
      body: JSON.stringify({
        track_id: track.id,
        version_id: version.id,
        position_ms: Math.round(audio.currentTime * 1000),
      }),
    }).catch(() => (counted = false));
  });

  let wave: WaveformView | undefined;
  const waveSlot = h('div', { class: 'wave-slot' });
  if (version.waveform_url) {
    try {
      wave = await waveformView(version.waveform_url, audio, durationMs);
      waveSlot.append(wave.element);
      audio.addEventListener('timeupdate', () => wave?.update());
      audio.addEventListener('seeked', () => wave?.update());
    } catch (err) {
      waveSlot.append(h('p', { class: 'error' }, problemText(err)));
    }
  }
  const db = version.loudness?.replay_gain_db;
  const element = h(
    'section',
    { class: 'player', 'aria-label': 'Player', 'data-part': 'player' },
    waveSlot,
    audio,
    h(
      'div',
      { class: 'row controls' },
      play,
      time,
      h('label', { for: 'volume' }, 'Volume'),
      volume,
      h(
        'span',
        { class: 'row' },
        normalise,
        h(
          'label',
          { for: 'normalise' },
          db === null || db === undefined
            ? 'Normalise loudness (no measurement)'
            : `Normalise loudness (ReplayGain ${db.toFixed(2)} dB)`,
        ),
      ),
    ),
  );
  return { element, audio, wave };
}
