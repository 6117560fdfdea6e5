/**
 * Lists that play: every track list (home, search, artist, album, my tracks, playlist, trending,
 * profile) draws its rows here: cover, a Play button, title and artist links, length, and "play
 * next" / "add to queue"; above the list, "Play all" and "Add all to the queue".
 */
import { h } from '../../shared/dom';
import { clock } from './api';
import { iconButton } from './icons';
import { addToQueue, playList, playNext } from './queue';
import type { QueueItem } from './queue-store';
import { validItem } from './queue-store';

const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/**
 * One list row of any API answer as a queue item: the catalogue's songs (artist, artist_id,
 * duration_ms, artwork_url), the track summaries and playlists' tracks (artist {handle, name},
 * duration_seconds, cover_url). Null when the row has no id or title.
 */
export function toItem(raw: unknown): QueueItem | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const r = raw as Record<string, unknown>;
  const a = r.artist;
  const artistObj = typeof a === 'object' && a !== null ? (a as Record<string, unknown>) : undefined;
  const artistId = str(r.artist_id) ?? str(artistObj?.id);
  const handle = str(artistObj?.handle) ?? str((r.owner as Record<string, unknown> | undefined)?.handle);
  const artist = str(a) ?? str(artistObj?.name) ?? str(artistObj?.display_name) ?? handle;
  const ms = num(r.duration_ms);
  return validItem({
    id: r.id,
    title: r.title,
    artist: artist ?? null,
    artistHref: artistId
      ? `/artists/${encodeURIComponent(artistId)}`
      : handle
        ? `/users/${encodeURIComponent(handle)}`
        : null,
    coverUrl: str(r.cover_url) ?? str(r.artwork_url) ?? null,
    durationSeconds: num(r.duration_seconds) ?? (ms !== undefined ? ms / 1000 : null),
  });
}

export function toItems(raws: unknown[]): QueueItem[] {
  return raws.map(toItem).filter((i): i is QueueItem => i !== null);
}

export interface RowOptions {
  /** Extra text after the length (an album name, a score, a state). */
  extra?: (item: QueueItem, index: number) => (Node | string | null)[];
  /** More controls at the end of a row (a playlist's reorder and remove). */
  actions?: (item: QueueItem, index: number) => (Node | null)[];
  empty?: string;
  /** More attributes of a row (my tracks: data-visibility). */
  rowAttrs?: (item: QueueItem) => Record<string, string>;
}

/** A list of tracks, each playable; playing one queues the whole list from it. */
export function playableList(label: string, items: QueueItem[], options: RowOptions = {}): HTMLElement {
  if (items.length === 0) return h('p', { class: 'muted' }, options.empty ?? 'Nothing here yet.');
  const rows = items.map((item, i) =>
    h(
      'li',
      {
        class: options.actions ? 'track-row editable' : 'track-row',
        'data-track': item.id,
        ...options.rowAttrs?.(item),
      },
      item.coverUrl
        ? h('img', { class: 'thumb', src: item.coverUrl, alt: '', width: 40, height: 40, loading: 'lazy' })
        : h('span', { class: 'thumb', 'aria-hidden': 'true' }, '♪'),
      iconButton(`Play ${item.title}`, 'play', () => void playList(items, i)),
      h(
        'span',
        { class: 'row-text' },
        h('a', { href: `/tracks/${item.id}`, class: 'row-title' }, item.title),
        h(
          'span',
          { class: 'muted row-sub' },
          item.artist && item.artistHref
            ? h('a', { href: item.artistHref }, item.artist)
            : (item.artist ?? ''),
          ...(options.extra?.(item, i) ?? []),
        ),
      ),
      h('span', { class: 'muted duration' }, item.durationSeconds ? clock(item.durationSeconds * 1000) : ''),
      h(
        'span',
        { class: 'row-actions' },
        iconButton(`Play ${item.title} next`, 'playNext', () => playNext([item])),
        iconButton(`Add ${item.title} to the queue`, 'add', () => addToQueue([item])),
        ...(options.actions?.(item, i) ?? []),
      ),
    ),
  );
  return h(
    'div',
    { class: 'playable' },
    h(
      'div',
      { class: 'row list-tools' },
      h(
        'button',
        {
          type: 'button',
          class: 'primary',
          'aria-label': `Play all: ${label}`,
          onclick: () => void playList(items),
        },
        'Play all',
      ),
      h(
        'button',
        { type: 'button', 'aria-label': `Add all to the queue: ${label}`, onclick: () => addToQueue(items) },
        'Add all to the queue',
      ),
    ),
    h('ol', { class: 'track-list rows', 'aria-label': label }, rows),
  );
}
