/**
 * Lists that play: every track list (home, search, artist, album, my tracks, playlist, trending,
 * profile) draws its rows here: cover, a Play button, title and artist links, length, and "play
 * next" / "add to queue"; above the list, "Play all" and "Add all to the queue".
 */
import { h, clear } from '../../shared/dom';
import { clock, problemText } from './api';
import { iconButton } from './icons';
import { addToQueue, playList, playNext } from './queue';
import type { QueueItem } from './queue-store';
import { MAX_QUEUE, validItem } from './queue-store';

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

/** A list read a page at a time (a playlist): later rows are read on "More" or when Play needs them. */
export interface ListPages {
  /** Up to `limit` rows after those read so far (fewer, or none, at the end). */
  next(limit: number): Promise<QueueItem[]>;
  /** Whether rows remain to be read. */
  more(): boolean;
  /** The "More" button's text. */
  label: string;
  /** Rows "More" reads. */
  page: number;
  /** The most rows one read may ask for (Play reads up to the queue's size at once). */
  maxPage: number;
}

export interface RowOptions {
  /** Extra text after the length (an album name, a score, a state). */
  extra?: (item: QueueItem, index: number) => (Node | string | null)[];
  /** More controls at the end of a row (a playlist's reorder and remove). */
  actions?: (item: QueueItem, index: number) => (Node | null)[];
  empty?: string;
  /** More attributes of a row (my tracks: data-visibility). */
  rowAttrs?: (item: QueueItem) => Record<string, string>;
  /** The rows after `items`, when the list is paged. */
  pages?: ListPages;
}

/**
 * A list of tracks, each playable; playing one queues the list from it (as much of it as the
 * queue holds: a paged list reads the rows it needs first, and shows them).
 */
export function playableList(label: string, items: QueueItem[], options: RowOptions = {}): HTMLElement {
  if (items.length === 0) return h('p', { class: 'muted' }, options.empty ?? 'Nothing here yet.');
  const row = (item: QueueItem, i: number): HTMLElement =>
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
      iconButton(`Play ${item.title}`, 'play', () => void upTo(i + MAX_QUEUE).then(() => playList(items, i))),
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
    );
  const list = h('ol', { class: 'track-list rows', 'aria-label': label }, items.map(row));
  const pages = options.pages;
  const more = h('button', { type: 'button', hidden: !pages?.more() }, pages?.label ?? '');
  const status = h('p', { role: 'status', class: 'muted' });
  // One read at a time, in order: "More" and a Play that needs rows never read the same page twice.
  let reading: Promise<void> = Promise.resolve();
  /** Reads and shows rows until `n` are shown or the list ends; a failed read is said under the list. */
  const upTo = (n: number): Promise<void> =>
    (reading = reading.then(async () => {
      more.disabled = true;
      try {
        while (pages?.more() && items.length < n) {
          const got = await pages.next(Math.min(pages.maxPage, n - items.length));
          list.append(...got.map((item, k) => row(item, items.length + k)));
          items.push(...got);
        }
        clear(status, pages && !pages.more() ? 'That is every track.' : '');
      } catch (err) {
        clear(status, h('span', { class: 'error' }, problemText(err)));
      } finally {
        more.disabled = false;
        more.hidden = !pages?.more();
      }
    }));
  more.addEventListener('click', () => void upTo(items.length + (pages?.page ?? 0)));
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
          onclick: () => void upTo(MAX_QUEUE).then(() => playList(items)),
        },
        'Play all',
      ),
      h(
        'button',
        {
          type: 'button',
          'aria-label': `Add all to the queue: ${label}`,
          onclick: () => void upTo(MAX_QUEUE).then(() => addToQueue(items)),
        },
        'Add all to the queue',
      ),
    ),
    list,
    pages ? h('div', { class: 'row list-more' }, more, status) : null,
  );
}
