/**
 * Playlists (the Subsonic playlists: one model, docs/web.md): /playlists lists mine and makes a
 * new one; /playlists/<id> plays it and, for its owner, renames it, makes it public or private,
 * reorders and removes its tracks, and deletes it. Each change sends the whole new order.
 */
import { h, clear } from '../../shared/dom';
import { field, showProblem, clearProblem } from '../../shared/forms';
import { ProblemError } from '../../shared/http';
import { api, clock, problemText, session } from './api';
import { iconButton } from './icons';
import { part } from './parts';
import { myPlaylists, type PlaylistView } from './playlist-picker';
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

export async function renderPlaylist(
  app: HTMLElement,
  id: string,
  go: (path: string) => void,
): Promise<void> {
  let p: PlaylistView;
  try {
    p = await api<PlaylistView>(`/playlists/${encodeURIComponent(id)}`);
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
  const status = h('p', { role: 'status', 'data-testid': 'playlist-status' });
  const items = toItems(p.tracks);
  const change = (body: object): void =>
    void api<PlaylistView>(`/playlists/${encodeURIComponent(id)}`, {
      method: 'PATCH',
      body: JSON.stringify(body),
    }).then(
      () => renderPlaylist(app, id, go),
      (err: unknown) => clear(status, h('span', { class: 'error' }, problemText(err))),
    );
  const order = (ids: string[]): void => change({ track_ids: ids });
  const ids = items.map((i) => i.id);
  const moved = (from: number, to: number): string[] => {
    const next = [...ids];
    const [x] = next.splice(from, 1);
    next.splice(to, 0, x!);
    return next;
  };
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
          ` · ${items.length} track${items.length === 1 ? '' : 's'} · ${clock(p.duration_seconds * 1000)} · ${p.public ? 'public' : 'private'}`,
        ),
      ),
    ),
    status,
    playableList(`Tracks of ${p.name}`, items, {
      empty: p.mine ? 'No tracks yet: use "Add to playlist" on a track.' : 'No tracks.',
      actions: p.mine
        ? (item, i) => [
            iconButton(`Move ${item.title} up`, 'up', () => order(moved(i, i - 1)), i === 0),
            iconButton(
              `Move ${item.title} down`,
              'down',
              () => order(moved(i, i + 1)),
              i === items.length - 1,
            ),
            iconButton(`Remove ${item.title} from the playlist`, 'remove', () =>
              order(ids.filter((_, j) => j !== i)),
            ),
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
