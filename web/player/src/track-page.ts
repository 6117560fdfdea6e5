/**
 * A track: while its version transcodes, the processing state (polled); then the player (hls.js
 * where the browser has no HLS of its own), the waveform seek bar, ReplayGain-normalised volume,
 * and comments at time positions.
 */
import type Hls from 'hls.js/light';
import { h, clear } from '../../shared/dom';
import { field, showProblem, clearProblem } from '../../shared/forms';
import { ProblemError } from '../../shared/http';
import { api, clock, session, type Comment, type Track, type Version } from './api';
import { waveformView, type WaveformView } from './waveform';

let teardown: (() => void) | undefined;

export async function renderTrack(app: HTMLElement, id: string): Promise<void> {
  teardown?.();
  teardown = undefined;
  let track: Track;
  try {
    track = await api<Track>(`/tracks/${encodeURIComponent(id)}`);
  } catch (err) {
    const gone = err instanceof ProblemError && err.problem.status === 404;
    clear(
      app,
      h('h1', {}, 'Track'),
      h(
        'p',
        { class: 'error', role: 'alert' },
        gone ? 'No such track, or it is private.' : (err as Error).message,
      ),
    );
    return;
  }
  document.title = `${track.title} · Music`;
  const body = h('div', {});
  clear(app, h('h1', {}, track.title), track.description ? h('p', {}, track.description) : null, body);
  const version = track.current_version;
  if (!version) {
    const p = track.processing;
    const failed = p?.status === 'failed';
    clear(
      body,
      h(
        'p',
        {
          class: failed ? 'error' : 'notice',
          role: 'status',
          'data-testid': 'processing',
          'data-status': p?.status ?? 'none',
        },
        failed
          ? `Processing failed: ${p?.error ?? 'unknown error'}`
          : p
            ? `Processing (${p.status})… the player appears when the audio is ready.`
            : 'This track has no audio yet.',
      ),
    );
    if (p && !failed) {
      const timer = setTimeout(() => {
        if (location.pathname === `/tracks/${id}`) void renderTrack(app, id);
      }, 2000);
      teardown = () => clearTimeout(timer);
    }
    return;
  }
  await renderPlayer(body, track, version);
}

function gainFactor(version: Version): number {
  const db = version.loudness?.replay_gain_db;
  // Loud tracks are turned down; quiet ones cannot go above full volume.
  return db === null || db === undefined ? 1 : Math.min(1, 10 ** (db / 20));
}

async function renderPlayer(body: HTMLElement, track: Track, version: Version): Promise<void> {
  const audio = h('audio', {
    controls: true,
    preload: 'metadata',
    'aria-label': `Play ${track.title}`,
    'data-testid': 'audio',
  });
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
  teardown = () => {
    hls?.destroy();
    audio.pause();
  };

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

  const durationMs = version.duration_ms ?? 0;
  let wave: WaveformView | undefined;
  const waveSlot = h('div', { class: 'wave-slot' });
  if (version.waveform_url) {
    try {
      wave = await waveformView(version.waveform_url, audio, durationMs);
      waveSlot.append(wave.element);
      audio.addEventListener('timeupdate', () => wave?.update());
      audio.addEventListener('seeked', () => wave?.update());
    } catch (err) {
      waveSlot.append(h('p', { class: 'error' }, (err as Error).message));
    }
  }
  const db = version.loudness?.replay_gain_db;
  const comments = h('ol', { class: 'comments', 'aria-label': 'Comments' });
  clear(
    body,
    version.artwork_url
      ? h('img', {
          src: version.artwork_url,
          alt: `Cover of ${track.title}`,
          class: 'cover',
          width: 300,
          height: 300,
        })
      : null,
    waveSlot,
    audio,
    h(
      'div',
      { class: 'row' },
      h('label', { for: 'volume' }, 'Volume'),
      volume,
      normalise,
      h(
        'label',
        { for: 'normalise' },
        db === null || db === undefined
          ? 'Normalise loudness (no measurement)'
          : `Normalise loudness (ReplayGain ${db.toFixed(2)} dB)`,
      ),
    ),
    h('h2', {}, 'Comments'),
    comments,
    commentForm(track, audio, () => void loadComments()),
  );
  const loadComments = async (): Promise<void> => {
    const list = await api<{ items: Comment[] }>(
      `/comments?track_id=${encodeURIComponent(track.id)}&limit=100`,
    );
    wave?.setComments(list.items);
    clear(
      comments,
      list.items.map((c) =>
        h(
          'li',
          { 'data-comment': c.id },
          h('strong', {}, c.user.display_name ?? c.user.handle),
          c.position_ms !== null ? h('span', { class: 'badge' }, clock(c.position_ms)) : null,
          ` ${c.body}`,
        ),
      ),
    );
  };
  await loadComments();
}

function commentForm(track: Track, audio: HTMLAudioElement, reload: () => void): HTMLElement {
  if (!session()) return h('p', {}, h('a', { href: '/login' }, 'Log in'), ' to comment.');
  const text = field('body', 'Comment', h('textarea', { rows: 2, maxlength: 2000, required: true }));
  const at = field(
    'position_ms',
    'At (m:ss)',
    h('input', { type: 'text', inputmode: 'numeric', pattern: '[0-9]+:[0-5][0-9]', size: 6 }),
  );
  const general = h('p', { class: 'error', role: 'alert' });
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Post the comment');
  const form = h(
    'form',
    { class: 'stack', novalidate: true },
    text.wrap,
    h(
      'div',
      { class: 'row' },
      at.wrap,
      h(
        'button',
        { type: 'button', onclick: () => (at.input.value = clock(audio.currentTime * 1000)) },
        'Use the current time',
      ),
    ),
    general,
    submit,
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    clearProblem([text, at], general);
    const m = /^(\d+):([0-5]\d)$/.exec(at.input.value.trim());
    if (at.input.value.trim() && !m) return void at.error.append('Write the time as m:ss, e.g. 0:05.');
    const position = m ? (Number(m[1]) * 60 + Number(m[2])) * 1000 : Math.round(audio.currentTime * 1000);
    submit.disabled = true;
    api('/comments', {
      method: 'POST',
      body: JSON.stringify({ track_id: track.id, body: text.input.value, position_ms: position }),
    })
      .then(() => {
        text.input.value = '';
        reload();
      })
      .catch((err: unknown) => showProblem(err, [text, at], general))
      .finally(() => (submit.disabled = false));
  });
  return form;
}
