/** Trending and profiles (with the artist's picture and bio, edited on their own page). */
import { h, clear } from '../../shared/dom';
import { ProblemError } from '../../shared/http';
import { api, problemText, session, type TrackSummary } from './api';
import { profileEditor, welcomeNote } from './profile-edit';
import { playableList, toItems } from './track-rows';

export async function renderTrending(app: HTMLElement, window: 'day' | 'week' = 'day'): Promise<void> {
  document.title = 'Trending · Music';
  const answer = await api<{ items: { track: TrackSummary; score: number }[]; computed_at: string | null }>(
    `/trending?window=${window}&limit=50`,
  );
  const scores = new Map(answer.items.map((i) => [i.track.id, i.score]));
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
    playableList('Trending tracks', toItems(answer.items.map((i) => i.track)), {
      extra: (item) => [` · score ${(scores.get(item.id) ?? 0).toFixed(2)}`],
    }),
    h(
      'p',
      { class: 'muted' },
      answer.computed_at ? `Computed ${new Date(answer.computed_at).toLocaleString()}.` : 'Not computed yet.',
    ),
  );
}

export interface Profile {
  handle: string;
  display_name: string | null;
  bio?: string | null;
  picture_url?: string | null;
  tracks: { items: TrackSummary[] };
}

export async function renderProfile(app: HTMLElement, handle: string): Promise<void> {
  document.title = `${handle} · Music`;
  let profile: Profile;
  try {
    profile = await api<Profile>(`/users/${encodeURIComponent(handle)}`);
  } catch (err) {
    const gone = err instanceof ProblemError && err.problem.status === 404;
    clear(
      app,
      h('h1', {}, handle),
      h('p', { class: 'error', role: 'alert' }, gone ? `No user ${handle}.` : problemText(err)),
    );
    return;
  }
  const name = profile.display_name ?? profile.handle;
  const picture = profile.picture_url ?? null;
  const mine = session()?.handle === profile.handle;
  clear(
    app,
    h(
      'div',
      { class: 'track-head' },
      picture
        ? h('img', { src: picture, alt: `Picture of ${name}`, class: 'cover round', width: 160, height: 160 })
        : null,
      h(
        'div',
        { class: 'track-facts' },
        h('h1', {}, name),
        h('p', { class: 'muted' }, `@${profile.handle}`),
        profile.bio ? h('p', { class: 'description', 'data-testid': 'bio' }, profile.bio) : null,
      ),
    ),
    (mine && welcomeNote()) ||
      (mine && profile.tracks.items.length === 0
        ? h(
            'p',
            { class: 'notice', 'data-testid': 'next-step' },
            'Next: ',
            h('a', { href: '/upload' }, 'upload your first track'),
            '.',
          )
        : null),
    h('h2', {}, 'Tracks'),
    playableList(`Tracks by ${profile.handle}`, toItems(profile.tracks.items)),
    mine ? profileEditor(profile, () => void renderProfile(app, handle)) : null,
  );
}
