/** Finding music: the home page (new uploads beside trending), search, artist and album pages. */
import { h, clear } from '../../shared/dom';
import { ProblemError } from '../../shared/http';
import { api, problemText, type Album, type Artist, type Song, type TrackSummary } from './api';
import { part, songList } from './parts';

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

function trendingList(items: { track: TrackSummary; score: number }[]): HTMLElement {
  if (items.length === 0) return h('p', { class: 'muted' }, 'No plays counted yet.');
  return h(
    'ol',
    { class: 'track-list', 'aria-label': 'Trending tracks' },
    items.map(({ track }) =>
      h('li', { 'data-track': track.id }, h('a', { href: `/tracks/${track.id}` }, track.title)),
    ),
  );
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
        return [trendingList(answer.items), h('p', {}, h('a', { href: '/trending' }, 'More of trending'))];
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
  const found = api<{ tracks: Song[]; albums: Album[]; artists: Artist[] }>(
    `/search?q=${encodeURIComponent(q)}&limit=20`,
  );
  clear(
    app,
    h('h1', {}, `Search: ${q}`),
    form,
    part('Artists', 'artists', async () => {
      const { artists } = await found;
      if (artists.length === 0) return h('p', { class: 'muted' }, 'No artist matches.');
      return h(
        'ul',
        { class: 'track-list', 'aria-label': 'Artists found' },
        artists.map((a) => h('li', {}, h('a', { href: `/artists/${a.id}` }, a.name))),
      );
    }),
    part('Albums', 'albums', async () => {
      const { albums } = await found;
      if (albums.length === 0) return h('p', { class: 'muted' }, 'No album matches.');
      return albumList('Albums found', albums);
    }),
    part('Tracks', 'tracks', async () => songList('Tracks found', (await found).tracks, 'No track matches.')),
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

export async function renderArtist(app: HTMLElement, id: string): Promise<void> {
  let artist: Artist & { albums: Album[]; tracks: Song[] };
  try {
    artist = await api(`/artists/${encodeURIComponent(id)}`);
  } catch (err) {
    return notFound(app, 'Artist', err);
  }
  document.title = `${artist.name} · Music`;
  clear(
    app,
    h('h1', {}, artist.name),
    h('p', { class: 'muted' }, 'Artist'),
    h('h2', {}, 'Albums'),
    artist.albums.length
      ? albumList(`Albums by ${artist.name}`, artist.albums)
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
    songList(`Tracks of ${album.name}`, album.tracks),
  );
}
