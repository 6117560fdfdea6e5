/** Finding music: the home page (new uploads beside trending), search, artist and album pages. */
import { h, clear } from '../../shared/dom';
import { ProblemError } from '../../shared/http';
import { api, problemText, type Album, type Artist, type Song, type TrackSummary } from './api';
import type { Profile } from './list-pages';
import { part, sharedLoad } from './parts';
import { playableList, toItems } from './track-rows';

function searchForm(q = ''): HTMLElement {
  const input = h('input', {
    type: 'search',
    name: 'q',
    id: 'search-q',
    value: q,
    required: true,
    maxlength: 200,
    placeholder: 'Title, artist or album',
  });
  return h(
    'form',
    { class: 'row search', role: 'search', action: '/search', method: 'get' },
    h('label', { for: 'search-q' }, 'Search'),
    input,
    h('button', { type: 'submit' }, 'Find'),
  );
}

/** Songs with their album and year after the artist. */
export function songList(label: string, songs: Song[], empty?: string): HTMLElement {
  const byId = new Map(songs.map((s) => [s.id, s]));
  return playableList(label, toItems(songs), {
    empty,
    extra: (item) => {
      const s = byId.get(item.id);
      return [s?.album ? ` · ${s.album}` : '', s?.year ? ` · ${s.year}` : ''];
    },
  });
}

export function renderHome(app: HTMLElement): void {
  document.title = 'Music';
  clear(
    app,
    h('h1', {}, 'Music'),
    searchForm(),
    h(
      'div',
      { class: 'columns' },
      part('New uploads', 'new', async () => {
        const answer = await api<{ items: Song[] }>('/new?limit=20');
        return songList('New uploads', answer.items);
      }),
      part('Trending today', 'trending', async () => {
        const answer = await api<{ items: { track: TrackSummary; score: number }[] }>(
          '/trending?window=day&limit=20',
        );
        return [
          answer.items.length
            ? playableList('Trending tracks', toItems(answer.items.map((i) => i.track)))
            : h('p', { class: 'muted' }, 'No plays counted yet.'),
          h('p', {}, h('a', { href: '/trending' }, 'More of trending')),
        ];
      }),
    ),
  );
}

export function renderSearch(app: HTMLElement, q: string): void {
  document.title = q ? `${q} · Search · Music` : 'Search · Music';
  const form = searchForm(q);
  if (!q.trim()) {
    clear(app, h('h1', {}, 'Search'), form);
    return;
  }
  const found = sharedLoad(() =>
    api<{ tracks: Song[]; albums: Album[]; artists: Artist[] }>(
      `/search?q=${encodeURIComponent(q)}&limit=20`,
    ),
  );
  clear(
    app,
    h('h1', {}, `Search: ${q}`),
    form,
    part('Artists', 'artists', async () => {
      const { artists } = await found();
      if (artists.length === 0) return h('p', { class: 'muted' }, 'No artist matches.');
      return h(
        'ul',
        { class: 'track-list', 'aria-label': 'Artists found' },
        artists.map((a) => h('li', {}, h('a', { href: `/artists/${a.id}` }, a.name))),
      );
    }),
    part('Albums', 'albums', async () => {
      const { albums } = await found();
      if (albums.length === 0) return h('p', { class: 'muted' }, 'No album matches.');
      return albumList('Albums found', albums);
    }),
    part('Tracks', 'tracks', async () =>
      songList('Tracks found', (await found()).tracks, 'No track matches.'),
    ),
  );
}

function albumList(label: string, albums: Album[]): HTMLElement {
  return h(
    'ul',
    { class: 'track-list', 'aria-label': label },
    albums.map((a) =>
      h(
        'li',
        {},
        h('a', { href: `/albums/${a.id}` }, a.name),
        h(
          'span',
          { class: 'muted' },
          ` · ${a.artist}${a.year ? ` · ${a.year}` : ''} · ${a.track_count} track${a.track_count === 1 ? '' : 's'}`,
        ),
      ),
    ),
  );
}

function notFound(app: HTMLElement, what: string, err: unknown): void {
  const gone = err instanceof ProblemError && err.problem.status === 404;
  document.title = gone ? `No such ${what.toLowerCase()} · Music` : `${what} · Music`;
  clear(
    app,
    h('h1', {}, what),
    h(
      'p',
      { class: 'error', role: 'alert' },
      gone ? `No such ${what.toLowerCase()}, or nothing of it is public.` : problemText(err),
    ),
  );
}

/** Albums as a grid of covers (a track's cover stands in for the album's). */
function albumGrid(label: string, albums: Album[], songs: Song[]): HTMLElement {
  const coverOf = (a: Album): string | null =>
    (a as Album & { cover_url?: string | null }).cover_url ??
    songs.find((s) => s.album_id === a.id && s.artwork_url)?.artwork_url ??
    null;
  return h(
    'ul',
    { class: 'album-grid', 'aria-label': label },
    albums.map((a) => {
      const cover = coverOf(a);
      return h(
        'li',
        { 'data-album': a.id },
        h(
          'a',
          { href: `/albums/${a.id}` },
          cover
            ? h('img', { src: cover, alt: '', width: 160, height: 160, loading: 'lazy' })
            : h('span', { class: 'no-cover', 'aria-hidden': 'true' }, '♪'),
          h('span', { class: 'album-name' }, a.name),
        ),
        h(
          'span',
          { class: 'muted' },
          `${a.year ? `${a.year} · ` : ''}${a.track_count} track${a.track_count === 1 ? '' : 's'}`,
        ),
      );
    }),
  );
}

type ArtistPage = Artist & { albums: Album[]; tracks: Song[] };

/** The uploader's picture, bio and profile link in the artist page's head. */
async function artistProfile(head: HTMLElement, name: string, handle: string): Promise<void> {
  const p = await api<Profile>(`/users/${encodeURIComponent(handle)}`).catch(() => undefined);
  if (!p) return;
  const picture = p.picture_url;
  if (picture)
    head.prepend(
      h('img', { src: picture, alt: `Picture of ${name}`, class: 'cover round', width: 160, height: 160 }),
    );
  const facts = head.querySelector('.track-facts')!;
  facts.append(
    h('p', {}, 'Uploaded by ', h('a', { href: `/users/${p.handle}` }, p.display_name ?? `@${p.handle}`)),
    p.bio ? h('p', { class: 'description', 'data-testid': 'bio' }, p.bio) : '',
  );
}

export async function renderArtist(app: HTMLElement, id: string): Promise<void> {
  let artist: ArtistPage;
  try {
    artist = await api(`/artists/${encodeURIComponent(id)}`);
  } catch (err) {
    return notFound(app, 'Artist', err);
  }
  document.title = `${artist.name} · Music`;
  const head = h(
    'div',
    { class: 'track-head' },
    h('div', { class: 'track-facts' }, h('h1', {}, artist.name), h('p', { class: 'muted' }, 'Artist')),
  );
  // The person behind the name (when one account uploaded all of it): their picture and bio.
  const owners = new Set(
    artist.tracks.map((t) => (t as Song & { owner?: { handle?: string } }).owner?.handle),
  );
  const [handle] = [...owners];
  if (owners.size === 1 && handle) void artistProfile(head, artist.name, handle);
  clear(
    app,
    head,
    h('h2', {}, 'Albums'),
    artist.albums.length
      ? albumGrid(`Albums by ${artist.name}`, artist.albums, artist.tracks)
      : h('p', { class: 'muted' }, 'No albums.'),
    h('h2', {}, 'Tracks'),
    songList(`Tracks by ${artist.name}`, artist.tracks),
  );
}

export async function renderAlbum(app: HTMLElement, id: string): Promise<void> {
  let album: Album & { tracks: Song[] };
  try {
    album = await api(`/albums/${encodeURIComponent(id)}`);
  } catch (err) {
    return notFound(app, 'Album', err);
  }
  document.title = `${album.name} · Music`;
  const cover = album.tracks.find((t) => t.artwork_url)?.artwork_url;
  clear(
    app,
    h(
      'div',
      { class: 'track-head' },
      cover
        ? h('img', { src: cover, alt: `Cover of ${album.name}`, class: 'cover', width: 300, height: 300 })
        : null,
      h(
        'div',
        {},
        h('h1', {}, album.name),
        h(
          'p',
          {},
          'Album by ',
          h('a', { href: `/artists/${album.artist_id}` }, album.artist),
          album.year ? ` · ${album.year}` : '',
          album.genre ? ` · ${album.genre}` : '',
        ),
      ),
    ),
    playableList(`Tracks of ${album.name}`, toItems(album.tracks)),
  );
}
