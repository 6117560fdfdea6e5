/**
 * A track: its context (cover, artist, album, year, genre, date, counts that follow plays and
 * comments); Play, Play next and Add to queue first under the title (the app's one player plays
 * it: audio-engine.ts); while a version transcodes, its processing steps (finished ones stay,
 * ticked); the waveform seek bar; comments; and for its owner, the tools to manage and sell it.
 * Each part loads and fails on its own: a failing part never takes the player down.
 */
import { h, clear } from '../../shared/dom';
import { ProblemError } from '../../shared/http';
import { api, clock, problemText, session, type TrackPage, type Version } from './api';
import { audio, current, toggle, TRACK_EVENT } from './audio-engine';
import { liveOpen, onLive, stepList, type LiveEvent } from './live';
import { commentsPart } from './comments';
import { managePart } from './track-manage';
import { paymentPart } from './payments';
import { addToPlaylist } from './playlist-picker';
import { addToQueue, playNext, playNow } from './queue';
import type { QueueItem } from './queue-store';
import { waveformView, type MediaClock, type WaveformView } from './waveform';

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
    // Not the title of the page before (a deleted track's link from a list, the queue).
    document.title = gone ? 'No such track · Music' : 'Track · Music';
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
  clear(app, trackHead(track, cleanups), paymentPart(track, mine), body);
  const processing = processingNotice(track, id, reload, cleanups);
  const version = track.current_version;
  if (!version) {
    clear(body, processing ?? h('p', { class: 'notice' }, 'This track has no audio yet.'));
    if (mine) body.append(managePart(track, reload, go));
    return;
  }
  const player = await renderPlayer(track, version, cleanups);
  const comments = commentsPart(track, version, player.media, player.wave, mine);
  clear(body, processing, player.element, comments);
  if (mine) body.append(managePart(track, reload, go));
}

function countsText(c: TrackPage['counts']): string {
  return `${c.plays} play${c.plays === 1 ? '' : 's'} · ${c.comments} comment${c.comments === 1 ? '' : 's'}`;
}

/** The counts follow what happens: re-read after a play is posted or a comment lands (live or here). */
function liveCounts(track: TrackPage, cleanups: (() => void)[]): HTMLElement {
  const el = h('p', { 'data-testid': 'counts' }, countsText(track.counts));
  const refresh = (): void =>
    void api<TrackPage>(`/tracks/${encodeURIComponent(track.id)}`).then(
      (fresh) => (el.textContent = countsText(fresh.counts)),
      () => undefined,
    );
  const onPlayed = (e: Event): void => {
    if ((e as CustomEvent<string>).detail === track.id) refresh();
  };
  audio.addEventListener('music:played', onPlayed);
  document.addEventListener('music:comments', refresh);
  cleanups.push(
    () => audio.removeEventListener('music:played', onPlayed),
    () => document.removeEventListener('music:comments', refresh),
    onLive((e) => {
      if (e.type.startsWith('comment.') && e.data.track_id === track.id) refresh();
    }),
  );
  return el;
}

function trackHead(track: TrackPage, cleanups: (() => void)[]): HTMLElement {
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
      playActions(track, cleanups),
      facts.length ? h('p', { 'data-testid': 'album' }, facts) : null,
      h(
        'p',
        { class: 'muted' },
        'Uploaded by ',
        h('a', { href: `/users/${track.owner.handle}` }, `@${track.owner.handle}`),
        ` on ${new Date(track.created_at).toLocaleDateString(undefined, { dateStyle: 'long' })}`,
        track.visibility !== 'public' ? ` · ${track.visibility}` : '',
      ),
      liveCounts(track, cleanups),
      track.description ? h('p', { class: 'description' }, track.description) : null,
    ),
  );
}

/** Each processing version's events so far, replayed into the steps list a re-drawn page makes. */
const stepsSeen = new Map<string, LiveEvent[]>();

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
    // A re-drawn page keeps the steps already finished (ticked) beside the running ones.
    const seen = stepsSeen.get(p.version_id) ?? [];
    stepsSeen.set(p.version_id, seen);
    seen.filter((e) => e.type === 'version.queued' || e.type === 'version.step').forEach(steps.feed);
    wrap.append(steps.element);
    cleanups.push(
      steps.stop,
      onLive((e) => {
        if (e.data.version_id === p.version_id) seen.push(e);
      }),
    );
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

/** The track as the queue and the player bar hold it. */
function trackItem(track: TrackPage): QueueItem {
  const version = track.current_version;
  return {
    id: track.id,
    title: track.title,
    artist: track.artist?.name ?? track.owner.display_name ?? track.owner.handle,
    artistHref: track.artist ? `/artists/${track.artist.id}` : `/users/${track.owner.handle}`,
    coverUrl: version?.artwork_url ?? null,
    durationSeconds: version?.duration_ms ? version.duration_ms / 1000 : null,
  };
}

interface Player {
  element: HTMLElement;
  media: MediaClock;
  wave: WaveformView | undefined;
}

/**
 * The track's own view of the app's one player: its waveform follows the audio while this version
 * is the one loaded; a seek on it (or on a comment marker) otherwise starts this track there.
 */
async function renderPlayer(track: TrackPage, version: Version, cleanups: (() => void)[]): Promise<Player> {
  const isThis = (): boolean => current()?.version.id === version.id;
  const durationMs = version.duration_ms ?? 0;
  const media: MediaClock = {
    get currentTime() {
      return isThis() ? audio.currentTime : 0;
    },
    set currentTime(seconds: number) {
      if (isThis()) audio.currentTime = seconds;
      else void playNow(trackItem(track), track, seconds);
    },
    get duration() {
      return isThis() && Number.isFinite(audio.duration) ? audio.duration : durationMs / 1000;
    },
  };
  const time = h('span', { class: 'time', 'aria-live': 'off' }, `0:00 / ${clock(durationMs)}`);
  const showTime = (): void => {
    time.textContent = `${clock(media.currentTime * 1000)} / ${clock(durationMs)}`;
    wave?.update();
  };
  const listen = (type: string, f: () => void): void => {
    audio.addEventListener(type, f);
    cleanups.push(() => audio.removeEventListener(type, f));
  };
  listen('timeupdate', showTime);
  listen('seeked', showTime);
  listen(TRACK_EVENT, showTime);

  let wave: WaveformView | undefined;
  const waveSlot = h('div', { class: 'wave-slot' });
  if (version.waveform_url) {
    try {
      wave = await waveformView(version.waveform_url, media, durationMs);
      waveSlot.append(wave.element);
    } catch (err) {
      waveSlot.append(h('p', { class: 'error' }, problemText(err)));
    }
  }
  const db = version.loudness?.replay_gain_db;
  const element = h(
    'section',
    { class: 'player', 'aria-label': 'Waveform', 'data-part': 'player' },
    waveSlot,
    h(
      'p',
      { class: 'row muted' },
      time,
      db === null || db === undefined ? '' : ` · ReplayGain ${db.toFixed(2)} dB (the player normalises it)`,
    ),
  );
  return { element, media, wave };
}

/** Play (or pause, when this track plays), play next, add to the queue: first under the title. */
function playActions(track: TrackPage, cleanups: (() => void)[]): HTMLElement | null {
  if (!track.current_version) return null;
  const item = trackItem(track);
  const play = h('button', { type: 'button', class: 'primary play', 'data-testid': 'play' }, 'Play');
  const isThis = (): boolean => current()?.version.id === track.current_version?.id;
  const show = (): void => {
    const playing = isThis() && !audio.paused;
    play.textContent = playing ? 'Pause' : 'Play';
    play.setAttribute('aria-label', `${playing ? 'Pause' : 'Play'} ${track.title}`);
  };
  play.addEventListener('click', () => {
    if (isThis()) toggle();
    else void playNow(item, track);
  });
  for (const type of ['play', 'pause', TRACK_EVENT]) {
    audio.addEventListener(type, show);
    cleanups.push(() => audio.removeEventListener(type, show));
  }
  show();
  return h(
    'div',
    { class: 'row play-actions' },
    play,
    h('button', { type: 'button', onclick: () => playNext([item]) }, 'Play next'),
    h('button', { type: 'button', onclick: () => addToQueue([item]) }, 'Add to queue'),
    session() ? addToPlaylist(item) : null,
  );
}
