/** Pieces several pages share: a part that loads on its own (its failure stays in it), song lists. */
import { h, clear } from '../../shared/dom';
import { clock, problemText, type Song } from './api';

/**
 * A section whose content is loaded on its own: while loading it says so; when the load fails
 * it shows its own error, and the rest of the page (the player above all) keeps working.
 */
export function part(
  title: string,
  testId: string,
  load: () => Promise<Node | Node[]>,
  heading: 'h2' | 'h3' = 'h2',
): HTMLElement {
  const body = h('div', { 'aria-busy': 'true' }, h('p', { class: 'muted' }, 'Loading…'));
  const section = h('section', { 'data-part': testId }, h(heading, {}, title), body);
  void load().then(
    (content) => {
      body.removeAttribute('aria-busy');
      clear(body, content);
      section.dataset.state = 'ready';
    },
    (err: unknown) => {
      body.removeAttribute('aria-busy');
      clear(
        body,
        h('p', { class: 'error', role: 'alert' }, `${title} could not be loaded: ${problemText(err)}`),
      );
      section.dataset.state = 'failed';
    },
  );
  return section;
}

/** Songs as a list: title (to the track), artist (to the artist), album, year, length. */
export function songList(label: string, songs: Song[], empty = 'Nothing here yet.'): HTMLElement {
  if (songs.length === 0) return h('p', { class: 'muted' }, empty);
  return h(
    'ol',
    { class: 'track-list', 'aria-label': label },
    songs.map((s) =>
      h(
        'li',
        { 'data-track': s.id },
        h('a', { href: `/tracks/${s.id}` }, s.title),
        h(
          'span',
          { class: 'muted' },
          ' by ',
          h('a', { href: `/artists/${s.artist_id}` }, s.artist),
          s.album ? ` · ${s.album}` : '',
          s.year ? ` · ${s.year}` : '',
          s.duration_ms ? ` · ${clock(s.duration_ms)}` : '',
        ),
      ),
    ),
  );
}
