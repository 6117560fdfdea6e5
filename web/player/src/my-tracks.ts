/** My tracks: every track of mine, private ones included, with its visibility and state. */
import { h, clear } from '../../shared/dom';
import { api, clock, session, type Track } from './api';
import { part } from './parts';
import { playableList } from './track-rows';

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
      const byId = new Map(answer.items.map((t) => [t.id, t]));
      // Tracks still without audio are listed too; playing one skips to the next with audio.
      const items = answer.items.map((t) => ({
        id: t.id,
        title: t.title,
        artist: null,
        artistHref: null,
        coverUrl: t.current_version?.artwork_url ?? null,
        durationSeconds: t.current_version?.duration_ms ? t.current_version.duration_ms / 1000 : null,
      }));
      return playableList('My tracks', items, {
        rowAttrs: (item) => ({ 'data-visibility': byId.get(item.id)?.visibility ?? '' }),
        extra: (item) => {
          const t = byId.get(item.id)!;
          return [
            h('span', { class: `badge ${t.visibility}` }, t.visibility),
            h(
              'span',
              { 'data-testid': 'state' },
              `${trackState(t)} · ${t.version_count} version${t.version_count === 1 ? '' : 's'}`,
            ),
          ];
        },
      });
    }),
  );
}
