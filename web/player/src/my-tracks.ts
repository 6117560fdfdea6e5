/** My tracks: every track of mine, private ones included, with its visibility and state. */
import { h, clear } from '../../shared/dom';
import { api, clock, session, type Track } from './api';
import { part } from './parts';

type Mine = Track & { version_count: number };

export function trackState(t: Track): string {
  if (t.processing?.status === 'failed') return `Version ${t.processing.number} failed`;
  if (t.processing) return `Version ${t.processing.number} processing (${t.processing.status})`;
  if (t.current_version)
    return `Ready${t.current_version.duration_ms ? ` · ${clock(t.current_version.duration_ms)}` : ''}`;
  return 'No audio yet';
}

export function renderMyTracks(app: HTMLElement): void {
  document.title = 'My tracks · Music';
  if (!session()) {
    clear(
      app,
      h('h1', {}, 'My tracks'),
      h('p', {}, h('a', { href: '/login' }, 'Log in'), ' to see your tracks.'),
    );
    return;
  }
  clear(
    app,
    h('h1', {}, 'My tracks'),
    h('p', {}, h('a', { href: '/upload' }, 'Upload a track')),
    part('Every track of mine', 'my-tracks', async () => {
      const answer = await api<{ items: Mine[] }>('/me/tracks?limit=100');
      if (answer.items.length === 0) return h('p', { class: 'muted' }, 'You have not uploaded anything yet.');
      return h(
        'ol',
        { class: 'track-list mine', 'aria-label': 'My tracks' },
        answer.items.map((t) =>
          h(
            'li',
            { 'data-track': t.id, 'data-visibility': t.visibility },
            h('a', { href: `/tracks/${t.id}` }, t.title),
            ' ',
            h('span', { class: `badge ${t.visibility}` }, t.visibility),
            h(
              'span',
              { class: 'muted', 'data-testid': 'state' },
              ` ${trackState(t)} · ${t.version_count} version${t.version_count === 1 ? '' : 's'}`,
            ),
          ),
        ),
      );
    }),
  );
}
