/** "Add to playlist" on a track: one of mine (appended at the end) or a new one made with it. */
import { h, clear } from '../../shared/dom';
import { api, problemText } from './api';
import type { QueueItem } from './queue-store';

export interface PlaylistSummary {
  id: string;
  name: string;
  public: boolean;
  track_count: number;
  duration_seconds: number;
  cover_url: string | null;
  updated_at: string;
}

/** A page of a playlist's songs (GET /playlists/:id/tracks, and `tracks` of the playlist). */
export interface PlaylistPage {
  items: unknown[];
  next_cursor: string | null;
}

export interface PlaylistView extends PlaylistSummary {
  owner: { handle: string; display_name: string | null };
  mine: boolean;
  /** The first page of the songs the reader may play (track_count counts them all). */
  tracks: PlaylistPage;
}

const NEW_PLAYLIST = 'new';

export function myPlaylists(): Promise<PlaylistSummary[]> {
  return api<{ items: PlaylistSummary[] }>('/me/playlists').then((a) => a.items);
}

/** Appends `trackId` to playlist `id`, after everything it holds (one write, the list not read). */
export function appendTo(id: string, trackId: string): Promise<PlaylistView> {
  return api<PlaylistView>(`/playlists/${encodeURIComponent(id)}`, {
    method: 'PATCH',
    body: JSON.stringify({ add_track_ids: [trackId] }),
  });
}

export function addToPlaylist(item: QueueItem): HTMLElement {
  const select = h(
    'select',
    { 'aria-label': `Playlist to add ${item.title} to` },
    h('option', { value: NEW_PLAYLIST }, 'A new playlist'),
  );
  const status = h('span', { role: 'status', class: 'muted' });
  const button = h('button', { type: 'button' }, 'Add to playlist');
  void myPlaylists().then(
    (lists) => select.append(...lists.map((p) => h('option', { value: p.id }, p.name))),
    (err: unknown) => clear(status, problemText(err)),
  );
  button.addEventListener('click', () => {
    const id = select.value;
    const done = (p: PlaylistView): void =>
      clear(status, 'Added to ', h('a', { href: `/playlists/${p.id}` }, p.name), '.');
    const made =
      id === NEW_PLAYLIST
        ? api<PlaylistView>('/playlists', {
            method: 'POST',
            body: JSON.stringify({ name: item.title, track_ids: [item.id] }),
          })
        : appendTo(id, item.id);
    made.then(done, (err: unknown) => clear(status, problemText(err)));
  });
  return h('span', { class: 'row add-to-playlist' }, select, button, status);
}
