/**
 * /me/sales (in the menu as "Sales"): the artist's totals per currency beside each sale and tip
 * (track, buyer, amount, date), newest first, a page at a time, all in the currency's own terms.
 */
import { h, clear } from '../../shared/dom';
import { api, problemText, session } from './api';
import { money } from './money';
import { part, sharedLoad } from './parts';

interface Totals {
  currency: string;
  sales: number;
  sales_count: number;
  tips: number;
  tips_count: number;
  refunds: number;
  disputes: number;
  net: number;
}

interface SaleItem {
  kind: 'purchase' | 'tip';
  track: { id: string; title: string } | null;
  buyer: { handle: string } | null;
  amount: number;
  currency: string;
  at: string;
  status?: string;
}

interface SalesPage {
  totals: Totals[];
  items?: SaleItem[];
  next_cursor: string | null;
}

/** Sales and tips a page shows at once; "Older sales and tips" reads the next ones. */
const PAGE = 20;

function saleRow(i: SaleItem): HTMLElement {
  return h(
    'tr',
    { 'data-kind': i.kind },
    h('td', {}, new Date(i.at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })),
    h('td', {}, i.track ? h('a', { href: `/tracks/${i.track.id}` }, i.track.title) : 'A deleted track'),
    h('td', {}, i.buyer ? h('a', { href: `/users/${i.buyer.handle}` }, `@${i.buyer.handle}`) : 'someone'),
    h(
      'td',
      {},
      `${i.kind === 'tip' ? 'Tip' : 'Purchase'}${i.status && i.status !== 'paid' ? ` (${i.status})` : ''}`,
    ),
    h('td', { 'data-testid': 'amount' }, money(i.amount, i.currency)),
  );
}

function table(head: string[], rows: HTMLElement[]): HTMLElement {
  return h(
    'div',
    { class: 'table-scroll' },
    h(
      'table',
      {},
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          head.map((c) => h('th', { scope: 'col' }, c)),
        ),
      ),
      h('tbody', {}, rows),
    ),
  );
}

export function renderSales(app: HTMLElement): void {
  document.title = 'Your sales · Music';
  if (!session()) {
    clear(
      app,
      h('h1', {}, 'Your sales'),
      h('p', {}, h('a', { href: '/login' }, 'Log in'), ' to see your sales.'),
    );
    return;
  }
  const answer = sharedLoad(() => api<SalesPage>(`/payments/sales?limit=${PAGE}`));
  clear(
    app,
    h('h1', {}, 'Your sales'),
    part('Totals per currency', 'sales', async () => {
      const { totals } = await answer();
      if (totals.length === 0) return h('p', { class: 'muted' }, 'No sales or tips yet.');
      return table(
        ['Currency', 'Sales', 'Tips', 'Refunds and disputes', 'Net'],
        totals.map((t) =>
          h(
            'tr',
            { 'data-currency': t.currency },
            h('th', { scope: 'row' }, t.currency.toUpperCase()),
            h('td', {}, `${money(t.sales, t.currency)} (${t.sales_count})`),
            h('td', {}, `${money(t.tips, t.currency)} (${t.tips_count})`),
            h('td', {}, money(t.refunds + t.disputes, t.currency)),
            h('td', { 'data-testid': 'net' }, money(t.net, t.currency)),
          ),
        ),
      );
    }),
    part('Each sale and tip', 'sale-items', async () => {
      const first = await answer();
      if ((first.items ?? []).length === 0) return h('p', { class: 'muted' }, 'Nothing sold yet.');
      const list = table(['Date', 'Track', 'Buyer', 'What', 'Amount'], (first.items ?? []).map(saleRow));
      const older = h('button', { type: 'button' }, 'Older sales and tips');
      const status = h('p', { role: 'status', class: 'muted' });
      let cursor = first.next_cursor;
      older.hidden = cursor === null;
      // Each page after the first, appended under it (the API's cursor: newest first).
      older.addEventListener('click', () => {
        if (cursor === null) return;
        older.disabled = true;
        api<SalesPage>(`/payments/sales?limit=${PAGE}&cursor=${encodeURIComponent(cursor)}`)
          .then((next) => {
            list.querySelector('tbody')!.append(...(next.items ?? []).map(saleRow));
            cursor = next.next_cursor;
            older.hidden = cursor === null;
            clear(status, cursor === null ? 'That is every sale and tip.' : '');
          })
          .catch((err: unknown) => clear(status, problemText(err)))
          .finally(() => (older.disabled = false));
      });
      return h('div', {}, list, older, status);
    }),
    h('p', {}, h('a', { href: '/me/purchases' }, 'What you bought')),
  );
}
