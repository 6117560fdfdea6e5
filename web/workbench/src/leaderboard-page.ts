/**
 * The open-bench leaderboard from GET /api/open-bench/leaderboard (newest or best, paged by the
 * cursor the API hands out). The page reads the first list of entries in the answer, so it
 * shows what the API publishes; a 404 or 503 is said plainly.
 */
import { h, clear } from '../../shared/dom';
import { ProblemError, requestJson } from '../../shared/http';
import { asArray, asRecord, str } from './api';

export async function renderLeaderboard(app: HTMLElement, order = 'newest', cursor?: string): Promise<void> {
  document.title = 'Open bench · Verifier workbench';
  const body = h('div', { 'aria-live': 'polite' });
  const orderButtons = ['newest', 'best'].map((o) =>
    h(
      'button',
      { type: 'button', 'aria-pressed': String(o === order), onclick: () => void renderLeaderboard(app, o) },
      o === 'newest' ? 'Newest first' : 'Best first',
    ),
  );
  clear(
    app,
    h('h1', {}, 'Open-bench leaderboard'),
    h('div', { class: 'row', role: 'group', 'aria-label': 'Order' }, orderButtons),
    body,
  );
  const params = new URLSearchParams({ order });
  if (cursor) params.set('cursor', cursor);
  let answer: Record<string, unknown>;
  try {
    answer = asRecord(await requestJson<unknown>(`/api/open-bench/leaderboard?${params.toString()}`));
  } catch (err) {
    const status = err instanceof ProblemError ? err.problem.status : 0;
    const detail =
      err instanceof ProblemError ? (err.problem.detail ?? err.problem.title) : (err as Error).message;
    const message =
      status === 404
        ? 'This server has no open-bench leaderboard (404): the open benchmark is not deployed here.'
        : status === 503
          ? `The leaderboard is unavailable right now (503): ${detail}`
          : `The leaderboard could not be read: ${detail}`;
    clear(body, h('p', { class: 'error', role: 'alert', 'data-testid': 'leaderboard-message' }, message));
    return;
  }
  const list = Object.values(answer).find((v) => Array.isArray(v));
  const entries = asArray(list).map(asRecord);
  if (entries.length === 0) {
    clear(body, h('p', { 'data-testid': 'leaderboard-message' }, 'No published receipts yet.'));
    return;
  }
  const columns = [...new Set(entries.flatMap((e) => Object.keys(e)))].slice(0, 8);
  const next = [answer.next_cursor, answer.cursor, answer.next].find(
    (v): v is string => typeof v === 'string',
  );
  clear(
    body,
    h(
      'div',
      { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': 'Leaderboard' },
      h(
        'table',
        { class: 'items' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            columns.map((c) => h('th', { scope: 'col' }, c)),
          ),
        ),
        h(
          'tbody',
          {},
          entries.map((e) =>
            h(
              'tr',
              {},
              columns.map((c) => h('td', {}, str(e[c]))),
            ),
          ),
        ),
      ),
    ),
    next
      ? h('button', { type: 'button', onclick: () => void renderLeaderboard(app, order, next) }, 'Next page')
      : null,
  );
}
