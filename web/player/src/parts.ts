/** A part of a page that loads on its own (its failure stays in it). */
import { h, clear } from '../../shared/dom';
import { problemText } from './api';

/**
 * A section whose content is loaded on its own: while loading it says so; when the load fails
 * it shows its own error with "Try again" (a busy server, a dropped connection pass), and the
 * rest of the page (the player above all) keeps working.
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
        h(
          'button',
          {
            type: 'button',
            'aria-label': `Try again: ${title}`,
            onclick: () => section.replaceWith(part(title, testId, load, heading)),
          },
          'Try again',
        ),
      );
      section.dataset.state = 'failed';
    },
  );
  return section;
}

/** One request several parts read: made once, and made again when a part tries again after it failed. */
export function sharedLoad<T>(load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () =>
    (pending ??= load().catch((err: unknown) => {
      pending = undefined;
      throw err;
    }));
}
