/**
 * What plays, told to the system (Media Session: lock screens, headsets, keyboards' media keys),
 * and the page's own shortcuts: space plays or pauses, left and right arrows seek 5 s, S turns
 * shuffle on or off, R steps repeat (off, all, one). Next and previous follow the queue's repeat
 * (queue.ts), the system's keys as the bar's buttons. Shortcuts never act inside a text field,
 * a select, a slider or on a focused button or link (their keys are theirs).
 */
import { audio, current, pause, play, seekTo, toggle, TRACK_EVENT } from './audio-engine';
import { cycleRepeat, next, previous, toggleShuffle } from './queue';

function describe(): void {
  const now = current();
  if (!now || !('mediaSession' in navigator)) return;
  const item = now.item;
  navigator.mediaSession.metadata = new MediaMetadata({
    title: item.title,
    artist: item.artist ?? now.track.owner.display_name ?? now.track.owner.handle,
    album: now.track.album?.name ?? '',
    artwork: item.coverUrl
      ? [{ src: new URL(item.coverUrl, location.href).href, sizes: '300x300', type: 'image/jpeg' }]
      : [],
  });
}

function position(): void {
  if (!('mediaSession' in navigator) || !Number.isFinite(audio.duration) || audio.duration <= 0) return;
  try {
    navigator.mediaSession.setPositionState({
      duration: audio.duration,
      position: Math.min(audio.currentTime, audio.duration),
      playbackRate: audio.playbackRate,
    });
  } catch {
    // A position the browser refuses (a live stream's end): the rest still works.
  }
}

function handlers(): void {
  const session = navigator.mediaSession;
  const set = (action: MediaSessionAction, handler: MediaSessionActionHandler): void => {
    try {
      session.setActionHandler(action, handler);
    } catch {
      // This browser does not know the action.
    }
  };
  set('play', play);
  set('pause', pause);
  set('previoustrack', previous);
  set('nexttrack', next);
  set('seekbackward', (d) => seekTo(audio.currentTime - (d.seekOffset ?? 10)));
  set('seekforward', (d) => seekTo(audio.currentTime + (d.seekOffset ?? 10)));
  set('seekto', (d) => {
    if (d.seekTime !== undefined) seekTo(d.seekTime);
  });
}

const TYPING = 'input, textarea, select, [contenteditable], [role="slider"], button, a, summary';

function shortcuts(event: KeyboardEvent): void {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target as Element | null;
  if (target?.closest(TYPING) || !current()) return;
  if (event.key === ' ') toggle();
  else if (event.key === 'ArrowLeft') seekTo(audio.currentTime - 5);
  else if (event.key === 'ArrowRight') seekTo(audio.currentTime + 5);
  else if (event.key === 's' || event.key === 'S') toggleShuffle();
  else if (event.key === 'r' || event.key === 'R') cycleRepeat();
  else return;
  event.preventDefault();
}

export function startMediaKeys(): void {
  if ('mediaSession' in navigator) {
    handlers();
    audio.addEventListener(TRACK_EVENT, describe);
    audio.addEventListener('durationchange', position);
    audio.addEventListener('seeked', position);
    audio.addEventListener('play', () => {
      navigator.mediaSession.playbackState = 'playing';
      position();
    });
    audio.addEventListener('pause', () => (navigator.mediaSession.playbackState = 'paused'));
  }
  document.addEventListener('keydown', shortcuts);
}
