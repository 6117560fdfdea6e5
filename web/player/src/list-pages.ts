/** Trending (the home page) and profiles: lists of public tracks. */
import { h, clear } from '../../shared/dom';
import { ProblemError } from '../../shared/http';
import { api, type TrackSummary } from './api';

function trackList(label: string, tracks: { track: TrackSummary; extra?: string }[]): HTMLElement {
  if (tracks.length === 0) return h('p', { class: 'muted' }, 'Nothing here yet.');
  return h(
    'ol',
    { class: 'track-list', 'aria-label': label },
    tracks.map(({ track, extra }) =>
      h(
        'li',
        { 'data-track': track.id },
        h('a', { href: `/tracks/${track.id}` }, track.title),
        extra ? h('span', { class: 'muted' }, ` ${extra}`) : null,
      ),
    ),
  );
}

export async function renderTrending(app: HTMLElement, window: 'day' | 'week' = 'day'): Promise<void> {
  document.title = 'Trending · Music';
  const answer = await api<{ items: { track: TrackSummary; score: number }[]; computed_at: string | null }>(
    `/trending?window=${window}&limit=50`,
  );
  clear(
    app,
    h('h1', {}, 'Trending'),
    h(
      'div',
      { class: 'row', role: 'group', 'aria-label': 'Window' },
      (['day', 'week'] as const).map((w) =>
        h(
          'button',
          {
            type: 'button',
            'aria-pressed': String(w === window),
            onclick: () => void renderTrending(app, w),
          },
          w === 'day' ? 'Today' : 'This week',
        ),
      ),
    ),
    trackList(
      'Trending tracks',
      answer.items.map((i) => ({ track: i.track, extra: `score ${i.score.toFixed(2)}` })),
    ),
    h(
      'p',
      { class: 'muted' },
      answer.computed_at ? `Computed ${new Date(answer.computed_at).toLocaleString()}.` : 'Not computed yet.',
    ),
  );
}

export async function renderProfile(app: HTMLElement, handle: string): Promise<void> {
  document.title = `${handle} · Music`;
  try {
    const profile = await api<{
      handle: string;
      display_name: string | null;
      tracks: { items: TrackSummary[] };
    }>(`/users/${encodeURIComponent(handle)}`);
    clear(
      app,
      h('h1', {}, profile.display_name ?? profile.handle),
      h('p', { class: 'muted' }, `@${profile.handle}`),
      h('h2', {}, 'Tracks'),
      trackList(
        `Tracks by ${profile.handle}`,
        profile.tracks.items.map((track) => ({ track })),
      ),
    );
  } catch (err) {
    const gone = err instanceof ProblemError && err.problem.status === 404;
    clear(
      app,
      h('h1', {}, handle),
      h('p', { class: 'error', role: 'alert' }, gone ? `No user ${handle}.` : (err as Error).message),
    );
  }
}
