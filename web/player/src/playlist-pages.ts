/**
 * Playlists (the Subsonic playlists: one model, docs/web.md): /playlists lists mine and makes a
 * new one; /playlists/<id> shows it a page at a time, plays it and, for its owner, renames it,
 * makes it public or private, moves and removes its tracks (each by its position and id: a track
 * moved meanwhile is refused, and the page drawn anew), and deletes it.
 */
import { h, clear } from '../../shared/dom';
import { field, showProblem, clearProblem } from '../../shared/forms';
import { ProblemError } from '../../shared/http';
import { api, clock, problemText, session } from './api';
import { iconButton } from './icons';
import { part } from './parts';
import { myPlaylists, type PlaylistPage, type PlaylistView } from './playlist-picker';
import type { QueueItem } from './queue-store';
import { playableList, toItems } from './track-rows';

function loginFirst(app: HTMLElement, what: string): void {
  clear(app, h('h1', {}, 'Playlists'), h('p', {}, h('a', { href: '/login' }, 'Log in'), ` ${what}.`));
}

export function renderPlaylists(app: HTMLElement, go: (path: string) => void): void {
  document.title = 'Playlists · Music';
  if (!session()) return loginFirst(app, 'to see and make your playlists');
  const name = field('name', 'Name', h('input', { type: 'text', maxlength: 200, required: true }));
  const shared = h('input', { type: 'checkbox', id: 'new-public' });
  const general = h('p', { class: 'error', role: 'alert' });
  const form = h(
    'form',
    { class: 'stack', novalidate: true, 'aria-label': 'New playlist' },
    h('h2', {}, 'New playlist'),
    name.wrap,
    h('span', { class: 'row' }, shared, h('label', { for: 'new-public' }, 'Public (anyone can listen)')),
    general,
    h('button', { type: 'submit', class: 'primary' }, 'Make the playlist'),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    clearProblem([name], general);
    if (!name.input.value.trim()) return void name.error.append('Give the playlist a name.');
    api<PlaylistView>('/playlists', {
      method: 'POST',
      body: JSON.stringify({ name: name.input.value.trim(), public: shared.checked }),
    }).then(
      (p) => go(`/playlists/${p.id}`),
      (err: unknown) => showProblem(err, [name], general),
    );
  });
  clear(
    app,
    h('h1', {}, 'Playlists'),
    part('Your playlists', 'playlists', async () => {
      const lists = await myPlaylists();
      if (lists.length === 0) return h('p', { class: 'muted' }, 'No playlists yet: make one below.');
      return h(
        'ul',
        { class: 'album-grid', 'aria-label': 'Your playlists' },
        lists.map((p) =>
          h(
            'li',
            { 'data-playlist': p.id },
            h(
              'a',
              { href: `/playlists/${p.id}` },
              p.cover_url
                ? h('img', { src: p.cover_url, alt: '', width: 160, height: 160, loading: 'lazy' })
                : h('span', { class: 'no-cover', 'aria-hidden': 'true' }, '♪'),
              h('span', { class: 'album-name' }, p.name),
            ),
            h(
              'span',
              { class: 'muted' },
              `${p.track_count} track${p.track_count === 1 ? '' : 's'} · ${clock(p.duration_seconds * 1000)} · ${p.public ? 'public' : 'private'}`,
            ),
          ),
        ),
      );
    }),
    form,
  );
}

/** Songs the playlist page shows at first and per "More", and the most one read asks (the API's bounds). */
const PAGE = 100;
const MAX_PAGE = 500;

/** Where the playlist page is drawn from: how many rows to show again, and a word to say over them. */
interface Shown {
  rows: number;
  notice?: string;
}

/** What the page says when it is drawn anew because the playlist changed (another window, a Subsonic app). */
const CHANGED = 'The playlist changed meanwhile; here it is as it is now.';

/**
 * /playlists/<id>: the playlist's first page of songs, the rest on "More" (or read by Play as far
 * as the queue holds). Drawn again after each change, with as many rows as were shown.
 */
export async function renderPlaylist(
  app: HTMLElement,
  id: string,
  go: (path: string) => void,
  shown: Shown = { rows: PAGE },
): Promise<void> {
  const path = `/playlists/${encodeURIComponent(id)}`;
  const items: QueueItem[] = [];
  let cursor: string | null = null;
  /** The next rows; a playlist changed since its first page is drawn anew, from its start. */
  const next = async (limit: number): Promise<QueueItem[]> => {
    if (cursor === null) return [];
    try {
      const page = await api<PlaylistPage>(
        `${path}/tracks?limit=${limit}&cursor=${encodeURIComponent(cursor)}`,
      );
      cursor = page.next_cursor;
      return toItems(page.items);
    } catch (err) {
      if (!(err instanceof ProblemError && err.problem.status === 409)) throw err;
      cursor = null;
      void renderPlaylist(app, id, go, { rows: items.length + limit, notice: CHANGED });
      return [];
    }
  };
  let p: PlaylistView;
  try {
    p = await api<PlaylistView>(`${path}?limit=${Math.min(Math.max(shown.rows, PAGE), MAX_PAGE)}`);
    items.push(...toItems(p.tracks.items));
    cursor = p.tracks.next_cursor;
    while (cursor !== null && items.length < shown.rows)
      items.push(...(await next(Math.min(MAX_PAGE, shown.rows - items.length))));
  } catch (err) {
    const gone = err instanceof ProblemError && err.problem.status === 404;
    clear(
      app,
      h('h1', {}, 'Playlist'),
      h(
        'p',
        { class: 'error', role: 'alert' },
        gone ? 'No such playlist, or it is private.' : problemText(err),
      ),
    );
    return;
  }
  document.title = `${p.name} · Music`;
  const status = h('p', { role: 'status', 'data-testid': 'playlist-status' }, shown.notice ?? '');
  /** A change (positions as this page numbers them), then the page drawn again as far as `rows`. */
  const change = (body: object, rows = items.length): void =>
    void api<PlaylistView>(path, { method: 'PATCH', body: JSON.stringify(body) }).then(
      () => renderPlaylist(app, id, go, { rows }),
      (err: unknown) =>
        err instanceof ProblemError && err.problem.status === 409
          ? renderPlaylist(app, id, go, { rows, notice: `${CHANGED} Try your change again.` })
          : clear(status, h('span', { class: 'error' }, problemText(err))),
    );
  const at = (i: number) => ({ position: i, track_id: items[i]!.id });
  const move = (i: number, to: number): void =>
    change({ move: { ...at(i), to } }, Math.max(items.length, to + 1));
  const count = p.track_count;
  clear(
    app,
    h(
      'div',
      { class: 'track-head' },
      p.cover_url
        ? h('img', { src: p.cover_url, alt: `Cover of ${p.name}`, class: 'cover', width: 160, height: 160 })
        : null,
      h(
        'div',
        { class: 'track-facts' },
        h('h1', {}, p.name),
        h(
          'p',
          { class: 'muted' },
          'Playlist by ',
          h('a', { href: `/users/${p.owner.handle}` }, p.owner.display_name || p.owner.handle),
          ` · ${count} track${count === 1 ? '' : 's'} · ${clock(p.duration_seconds * 1000)} · ${p.public ? 'public' : 'private'}`,
        ),
      ),
    ),
    status,
    playableList(`Tracks of ${p.name}`, items, {
      empty: p.mine ? 'No tracks yet: use "Add to playlist" on a track.' : 'No tracks.',
      pages: { next, more: () => cursor !== null, label: 'More tracks', page: PAGE, maxPage: MAX_PAGE },
      actions: p.mine
        ? (item, i) => [
            iconButton(`Move ${item.title} up`, 'up', () => move(i, i - 1), i === 0),
            iconButton(`Move ${item.title} down`, 'down', () => move(i, i + 1), i === count - 1),
            iconButton(`Remove ${item.title} from the playlist`, 'remove', () => change({ remove: [at(i)] })),
          ]
        : undefined,
    }),
    p.mine ? ownerTools(p, change, go) : null,
  );
}

function ownerTools(
  p: PlaylistView,
  change: (body: object) => void,
  go: (path: string) => void,
): HTMLElement {
  const name = field('name', 'Name', h('input', { type: 'text', maxlength: 200 }));
  name.input.value = p.name;
  const shared = h('input', { type: 'checkbox', id: 'playlist-public', checked: p.public });
  const general = h('p', { class: 'error', role: 'alert' });
  const form = h(
    'form',
    { class: 'stack', novalidate: true, 'aria-label': 'Edit the playlist' },
    name.wrap,
    h('span', { class: 'row' }, shared, h('label', { for: 'playlist-public' }, 'Public (anyone can listen)')),
    general,
    h('button', { type: 'submit', class: 'primary' }, 'Save the playlist'),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    clearProblem([name], general);
    if (!name.input.value.trim()) return void name.error.append('Give the playlist a name.');
    change({ name: name.input.value.trim(), public: shared.checked });
  });
  const remove = h(
    'button',
    {
      type: 'button',
      class: 'danger',
      onclick: () => {
        if (!confirm(`Delete the playlist “${p.name}”? Its tracks stay where they are.`)) return;
        api(`/playlists/${encodeURIComponent(p.id)}`, { method: 'DELETE' }).then(
          () => go('/playlists'),
          (err: unknown) => clear(general, problemText(err)),
        );
      },
    },
    'Delete this playlist',
  );
  return h(
    'section',
    { class: 'manage', 'aria-label': 'Manage this playlist' },
    h('h2', {}, 'Manage this playlist'),
    form,
    h('div', { class: 'danger' }, remove),
  );
}
