/**
 * The open-bench leaderboard from GET /api/open-bench/leaderboard (newest or best, paged by page
 * number: `entries`, `page`, `pages`, `next_page`); a 404 or 503 is said plainly.
 */
import { h, clear } from '../../shared/dom';
import { ProblemError, requestJson } from '../../shared/http';
import { asArray, asRecord, str } from './api';
import { checkInLog } from './log-check';

export async function renderLeaderboard(app: HTMLElement, order = 'newest', page = 1): Promise<void> {
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
  const params = new URLSearchParams({ order, page: String(page) });
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
  const entries = asArray(answer.entries).map(asRecord);
  if (entries.length === 0) {
    clear(body, h('p', { 'data-testid': 'leaderboard-message' }, 'No published receipts yet.'));
    return;
  }
  const columns: [string, (e: Record<string, unknown>) => string][] = [
    ['Name', (e) => str(e.display_name)],
    ['Verdict', (e) => str(e.verdict)],
    [
      'Candidate passed',
      (e) => `${str(asRecord(e.summary).candidate_passed)} / ${str(asRecord(e.summary).tasks)}`,
    ],
    [
      'Baseline passed',
      (e) => `${str(asRecord(e.summary).baseline_passed)} / ${str(asRecord(e.summary).tasks)}`,
    ],
    ['Gains', (e) => str(asRecord(e.summary).gains)],
    ['Regressions', (e) => str(asRecord(e.summary).regressions)],
    ['Published', (e) => str(e.published_at)],
  ];
  const logResult = h('p', { 'aria-live': 'polite', 'data-testid': 'log-check' });
  const checkButton = (e: Record<string, unknown>): HTMLElement =>
    h(
      'button',
      {
        type: 'button',
        onclick: () => {
          clear(logResult, `Checking ${str(e.public_id)} against the log…`);
          checkInLog(str(e.public_id)).then(
            (text) => clear(logResult, h('span', { class: 'ok' }, text)),
            (err: unknown) =>
              clear(
                logResult,
                h('span', { class: 'error', role: 'alert' }, `Log check failed: ${(err as Error).message}`),
              ),
          );
        },
      },
      `Check ${str(e.public_id)} in the log`,
    );
  const next = typeof answer.next_page === 'number' ? answer.next_page : undefined;
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
          h('tr', {}, [
            ...columns.map(([c]) => h('th', { scope: 'col' }, c)),
            h('th', { scope: 'col' }, 'Receipt and log'),
          ]),
        ),
        h(
          'tbody',
          {},
          entries.map((e) =>
            h('tr', {}, [...columns.map(([, cell]) => h('td', {}, cell(e))), h('td', {}, checkButton(e))]),
          ),
        ),
      ),
    ),
    logResult,
    next
      ? h(
          'button',
          { type: 'button', onclick: () => void renderLeaderboard(app, order, next) },
          `Page ${next}`,
        )
      : null,
  );
}
