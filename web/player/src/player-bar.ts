/**
 * The player bar, fixed at the bottom of every page (a mini-player on phones): cover, title and
 * artist (links), shuffle / previous / play-pause / next / repeat, position, time, volume with "Normalise loudness",
 * the queue (reorder, remove, jump), and a line saying why nothing plays when the audio cannot be
 * reached or which queued tracks were dropped. It holds the app's one <audio> element.
 */
import { h, clear } from '../../shared/dom';
import { clock } from './api';
import {
  audio,
  current,
  mediaProblem,
  PROBLEM_EVENT,
  seekTo,
  setVolume,
  toggle,
  TRACK_EVENT,
  volumeSettings,
} from './audio-engine';
import { icon, iconButton, setIcon } from './icons';
import {
  cycleRepeat,
  hasNext,
  jump,
  move,
  next,
  previous,
  queue,
  QUEUE_EVENT,
  queueNotice,
  remove,
  toggleShuffle,
} from './queue';
import type { Repeat } from './queue-order';

const REPEAT_SAYS: Record<Repeat, string> = {
  off: 'Repeat: off',
  all: 'Repeat: the whole queue',
  one: 'Repeat: this track',
};

const VOLUME_KEY = 'music.volume';

function savedVolume(): { volume: number; normalise: boolean } {
  try {
    const raw = JSON.parse(localStorage.getItem(VOLUME_KEY) ?? 'null') as unknown;
    const r = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const v = typeof r.volume === 'number' && r.volume >= 0 && r.volume <= 1 ? r.volume : 1;
    return { volume: v, normalise: r.normalise !== false };
  } catch {
    return { volume: 1, normalise: true };
  }
}

export function mountPlayerBar(): void {
  const saved = savedVolume();
  setVolume(saved.volume, saved.normalise);
  const cover = h('img', { class: 'bar-cover', alt: '', width: 48, height: 48 });
  const title = h('a', { class: 'bar-title', href: '/' });
  const artist = h('a', { class: 'bar-artist', href: '/' });
  // Why nothing plays (offline, reconnecting, given up) or what the queue dropped: said where the listener looks.
  const problem = h('span', { class: 'bar-problem', role: 'status', 'data-testid': 'player-problem' });
  const play = iconButton('Play', 'play', toggle);
  const prev = iconButton('Previous track', 'previous', previous);
  const nextButton = iconButton('Next track', 'next', next);
  // Toggle buttons keep their names; aria-pressed says on or off, the tooltip which repeat.
  const shuffle = iconButton('Shuffle', 'shuffle', toggleShuffle);
  const repeat = iconButton('Repeat', 'repeat', cycleRepeat);
  const time = h('span', { class: 'time', 'aria-live': 'off' }, '0:00 / 0:00');
  const seek = h('input', {
    type: 'range',
    class: 'bar-seek',
    min: 0,
    max: 0,
    step: 1,
    value: 0,
    'aria-label': 'Position in the track',
  });
  const volume = h('input', {
    type: 'range',
    id: 'volume',
    min: 0,
    max: 1,
    step: 0.01,
    value: saved.volume,
    'aria-label': 'Volume',
  });
  const normalise = h('input', { type: 'checkbox', id: 'normalise', checked: saved.normalise });
  const keepVolume = (): void => {
    setVolume(Number(volume.value), normalise.checked);
    localStorage.setItem(VOLUME_KEY, JSON.stringify(volumeSettings()));
  };
  volume.addEventListener('input', keepVolume);
  normalise.addEventListener('change', keepVolume);
  let seeking = false;
  seek.addEventListener('input', () => {
    seeking = true;
    time.textContent = `${clock(Number(seek.value) * 1000)} / ${clock(Number(seek.max) * 1000)}`;
  });
  seek.addEventListener('change', () => {
    seeking = false;
    seekTo(Number(seek.value));
  });

  const list = h('ol', { class: 'queue-list', 'aria-label': 'Queue' });
  const panel = h(
    'section',
    { class: 'queue-panel', id: 'queue-panel', 'aria-label': 'Queue', hidden: true },
    h('h2', {}, 'Queue'),
    list,
  );
  const queueButton = h(
    'button',
    { type: 'button', class: 'queue-toggle', 'aria-expanded': 'false', 'aria-controls': 'queue-panel' },
    'Queue',
  );
  queueButton.addEventListener('click', () => {
    panel.hidden = !panel.hidden;
    queueButton.setAttribute('aria-expanded', String(!panel.hidden));
  });

  const bar = h(
    'section',
    { class: 'player-bar', 'aria-label': 'Player', 'data-testid': 'player-bar', hidden: true },
    seek,
    h(
      'div',
      { class: 'bar-main' },
      cover,
      h('div', { class: 'bar-text' }, title, artist),
      h('div', { class: 'bar-buttons' }, shuffle, prev, play, nextButton, repeat),
      time,
      h(
        'div',
        { class: 'bar-volume' },
        volume,
        h('span', { class: 'row' }, normalise, h('label', { for: 'normalise' }, 'Normalise loudness')),
      ),
      queueButton,
    ),
    problem,
    panel,
    audio,
  );
  document.body.append(bar);

  const showTrack = (): void => {
    const now = current();
    bar.hidden = !now && queue().items.length === 0;
    document.body.classList.toggle('with-player', !bar.hidden);
    // A queue played to its end has nothing current: no empty, unnamed title or artist links.
    title.hidden = !now;
    if (!now) {
      artist.hidden = true;
      return;
    }
    cover.hidden = !now.item.coverUrl;
    if (now.item.coverUrl) cover.src = now.item.coverUrl;
    title.textContent = now.item.title;
    title.href = `/tracks/${now.item.id}`;
    artist.textContent = now.item.artist ?? '';
    artist.hidden = !now.item.artist || !now.item.artistHref;
    artist.href = now.item.artistHref ?? '/';
    seek.max = String(Math.round(now.item.durationSeconds ?? 0));
    showTime();
  };
  const showTime = (): void => {
    const total = Number.isFinite(audio.duration) ? audio.duration : (current()?.item.durationSeconds ?? 0);
    if (!seeking) {
      seek.max = String(Math.round(total));
      seek.value = String(Math.floor(audio.currentTime));
      time.textContent = `${clock(audio.currentTime * 1000)} / ${clock(total * 1000)}`;
    }
    seek.setAttribute('aria-valuetext', `${clock(audio.currentTime * 1000)} of ${clock(total * 1000)}`);
  };
  const showState = (): void => {
    const playing = !audio.paused;
    setIcon(play, playing ? 'Pause' : 'Play', playing ? 'pause' : 'play');
  };
  const showQueue = (): void => {
    const { items, index, ranks, repeat: mode } = queue();
    queueButton.replaceChildren(icon('queue'), h('span', {}, String(items.length)));
    queueButton.setAttribute('aria-label', `Queue (${items.length})`);
    queueButton.title = `Queue (${items.length})`;
    prev.disabled = index < 0;
    nextButton.disabled = !hasNext();
    shuffle.setAttribute('aria-pressed', String(ranks !== null));
    shuffle.title = ranks ? 'Shuffle: on' : 'Shuffle: off';
    repeat.setAttribute('aria-pressed', String(mode !== 'off'));
    repeat.dataset.repeat = mode;
    repeat.title = REPEAT_SAYS[mode];
    repeat.replaceChildren(icon(mode === 'one' ? 'repeatOne' : 'repeat'));
    clear(
      list,
      items.map((item, i) =>
        h(
          'li',
          { 'data-track': item.id, ...(i === index ? { 'aria-current': 'true' } : {}) },
          h(
            'button',
            { type: 'button', class: 'link', onclick: () => void jump(i) },
            `${item.title}${item.artist ? ` · ${item.artist}` : ''}`,
          ),
          h(
            'span',
            { class: 'queue-actions' },
            iconButton(`Move ${item.title} up`, 'up', () => move(i, i - 1), i === 0),
            iconButton(`Move ${item.title} down`, 'down', () => move(i, i + 1), i === items.length - 1),
            iconButton(`Remove ${item.title} from the queue`, 'remove', () => remove(i)),
          ),
        ),
      ),
    );
    showTrack();
  };
  audio.addEventListener(TRACK_EVENT, showTrack);
  audio.addEventListener(QUEUE_EVENT, showQueue);
  audio.addEventListener('timeupdate', showTime);
  audio.addEventListener('durationchange', showTime);
  const showProblem = (): void => void (problem.textContent = mediaProblem() || queueNotice());
  audio.addEventListener(PROBLEM_EVENT, showProblem);
  audio.addEventListener(QUEUE_EVENT, showProblem);
  audio.addEventListener('play', showState);
  audio.addEventListener('pause', showState);
  showQueue();
  showState();
}
