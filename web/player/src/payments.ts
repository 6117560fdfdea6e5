/**
 * Buying and tipping (docs/payments.md): the buy/tip controls on a track page (none when the
 * server has no payment settings or the track is not for sale), the Checkout outcome page
 * (/purchases/<id>), the buyer's purchases (/me/purchases) and the artist's sales (/me/sales).
 * Checkout itself is the provider's page: the player only redirects there and back.
 */
import { h, clear } from '../../shared/dom';
import { ProblemError } from '../../shared/http';
import { api, problemText, session, type TrackPage } from './api';
import { part } from './parts';

interface Price {
  track_id: string;
  currency: string | null;
  amount: number | null;
  for_sale: boolean;
  pay_what_you_want: boolean;
  tips: boolean;
}

interface Purchase {
  id: string;
  kind: 'sale' | 'tip';
  status: string;
  track_id: string | null;
  track_title: string | null;
  currency: string;
  amount: number;
  created_at: string;
  downloadable: boolean;
}

/** Digits after the decimal point of a currency (2 for eur, 0 for jpy). */
function digits(currency: string): number {
  return (
    new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2
  );
}

/** Minor units as a person reads them ("€7.00"). */
export function money(minor: number, currency: string): string {
  const d = digits(currency.toUpperCase());
  return new Intl.NumberFormat(undefined, { style: 'currency', currency: currency.toUpperCase() }).format(
    minor / 10 ** d,
  );
}

/** "7.5" in eur -> 750; undefined when it is not an amount (no floats: the digits are joined). */
function toMinor(text: string, currency: string): number | undefined {
  const d = digits(currency.toUpperCase());
  const m = /^([0-9]{1,8})(?:[.,]([0-9]+))?$/.exec(text.trim());
  if (!m || (m[2]?.length ?? 0) > d) return undefined;
  return Number(m[1]) * 10 ** d + Number((m[2] ?? '').padEnd(d, '0') || '0');
}

async function startCheckout(body: object, status: HTMLElement): Promise<void> {
  status.textContent = 'Opening the checkout…';
  try {
    const answer = await api<{ url: string }>('/payments/checkout', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    location.assign(answer.url);
  } catch (err) {
    status.textContent = problemText(err);
    status.className = 'error';
  }
}

function amountForm(
  label: string,
  button: string,
  price: Price,
  initial: number,
  submit: (minor: number) => void,
  status: HTMLElement,
): HTMLElement {
  const currency = price.currency!;
  const input = h('input', {
    type: 'text',
    inputmode: 'decimal',
    name: 'amount',
    'aria-label': `${label} (${currency.toUpperCase()})`,
    value: (initial / 10 ** digits(currency.toUpperCase())).toFixed(digits(currency.toUpperCase())),
    size: 8,
  });
  return h(
    'form',
    {
      class: 'inline',
      onsubmit: (event: Event) => {
        event.preventDefault();
        const minor = toMinor(input.value, currency);
        if (minor === undefined) {
          status.textContent = `Enter an amount in ${currency.toUpperCase()}, like ${(initial / 10 ** digits(currency.toUpperCase())).toFixed(digits(currency.toUpperCase()))}.`;
          status.className = 'error';
          return;
        }
        submit(minor);
      },
    },
    h('label', {}, `${label} `, input),
    ' ',
    h('button', { type: 'submit' }, button),
  );
}

let enabled: Promise<boolean> | undefined;

/** Whether the server takes payments (asked once a page load; a failure counts as off). */
function paymentsOn(): Promise<boolean> {
  enabled ??= api<{ enabled: boolean }>('/payments').then(
    (s) => s.enabled,
    () => false,
  );
  return enabled;
}

/** Buy and tip controls of a track; an empty element when payments are off or nothing is offered. */
export function paymentPart(track: TrackPage, mine: boolean): HTMLElement {
  const box = h('div', { class: 'payments', 'data-part': 'payments' });
  if (mine) return box;
  void paymentsOn()
    .then((on) => (on ? api<Price>(`/payments/tracks/${encodeURIComponent(track.id)}`) : undefined))
    .then(
      (price) => {
        if (price) clear(box, offers(track, price));
        box.dataset.state = 'ready';
      },
      // The page works without them.
      () => (box.dataset.state = 'ready'),
    );
  return box;
}

function offers(track: TrackPage, price: Price): (HTMLElement | null)[] {
  if (!price.currency || (!price.for_sale && !price.tips)) return [];
  const status = h('p', { role: 'status', 'data-testid': 'payment-status' });
  if (!session())
    return [
      h(
        'p',
        {},
        h('a', { href: '/login' }, 'Log in'),
        price.for_sale ? ' to buy this track.' : ' to tip the artist.',
      ),
    ];
  const sale = price.for_sale && price.amount !== null;
  const buy = !sale
    ? null
    : price.pay_what_you_want
      ? amountForm(
          'Pay what you want',
          'Buy',
          price,
          price.amount!,
          (amount) => void startCheckout({ track_id: track.id, kind: 'sale', amount }, status),
          status,
        )
      : h(
          'button',
          {
            type: 'button',
            'data-testid': 'buy',
            onclick: () => void startCheckout({ track_id: track.id, kind: 'sale' }, status),
          },
          `Buy ${money(price.amount!, price.currency)}`,
        );
  const tip = price.tips
    ? amountForm(
        'Tip',
        'Send tip',
        price,
        (price.amount ?? 0) > 0 ? price.amount! : 300,
        (amount) => void startCheckout({ track_id: track.id, kind: 'tip', amount }, status),
        status,
      )
    : null;
  return [buy, tip, status, h('p', { class: 'muted' }, h('a', { href: '/me/purchases' }, 'Your purchases'))];
}

async function download(trackId: string, status: HTMLElement): Promise<void> {
  try {
    const link = await api<{ url: string }>(`/payments/tracks/${encodeURIComponent(trackId)}/download`);
    location.assign(link.url);
  } catch (err) {
    status.textContent = problemText(err);
    status.className = 'error';
  }
}

function downloadButton(p: Purchase): HTMLElement | null {
  if (!p.downloadable || !p.track_id) return null;
  const status = h('span', { role: 'status' });
  const trackId = p.track_id;
  return h(
    'span',
    {},
    h(
      'button',
      { type: 'button', 'data-testid': 'download', onclick: () => void download(trackId, status) },
      'Download original',
    ),
    ' ',
    status,
  );
}

const STATUS_TEXT: Record<string, string> = {
  pending: 'Waiting for the payment to be confirmed…',
  awaiting_payment:
    'The payment is on its way (some methods take a few days); you will be able to download once it arrives.',
  paid: 'Paid. Thank you!',
  failed: 'The payment did not go through; nothing was charged for this purchase.',
  refunded: 'Refunded.',
  disputed: 'Disputed with the bank; the download is suspended.',
};

/** /purchases/<id>: what came of a Checkout; a pending one is re-read until the provider's word arrives. */
export async function renderPurchase(app: HTMLElement, id: string, outcome: string | null): Promise<void> {
  document.title = 'Purchase · Music';
  const load = () => api<Purchase>(`/payments/purchases/${encodeURIComponent(id)}`);
  let p: Purchase;
  try {
    p = await load();
  } catch (err) {
    const gone = err instanceof ProblemError && err.problem.status === 404;
    clear(
      app,
      h('h1', {}, 'Purchase'),
      h('p', { class: 'error', role: 'alert' }, gone ? 'No such purchase.' : problemText(err)),
    );
    return;
  }
  const draw = (q: Purchase): void => {
    const what = q.kind === 'tip' ? 'Tip for' : 'Purchase of';
    clear(
      app,
      h('h1', {}, `${what} ${q.track_title ?? 'a deleted track'}`),
      outcome === 'cancel' && q.status === 'pending'
        ? h(
            'p',
            { class: 'notice', role: 'status', 'data-status': 'cancelled' },
            'Checkout was cancelled; nothing was charged.',
          )
        : h('p', { role: 'status', 'data-status': q.status }, STATUS_TEXT[q.status] ?? q.status),
      h('p', {}, `${money(q.amount, q.currency)}`),
      downloadButton(q),
      h(
        'p',
        {},
        q.track_id ? h('a', { href: `/tracks/${q.track_id}` }, 'Back to the track') : null,
        ' · ',
        h('a', { href: '/me/purchases' }, 'Your purchases'),
      ),
    );
  };
  draw(p);
  // The webhook may land a moment after the provider sends the buyer back.
  for (
    let i = 0;
    i < 30 && p.status === 'pending' && outcome === 'success' && location.pathname === `/purchases/${id}`;
    i++
  ) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    p = await load();
    if (location.pathname === `/purchases/${id}`) draw(p);
  }
}

/** /me/purchases: everything the caller bought or tipped, with downloads. */
export function renderPurchases(app: HTMLElement): void {
  document.title = 'Your purchases · Music';
  clear(
    app,
    h('h1', {}, 'Your purchases'),
    part('Bought and tipped', 'purchases', async () => {
      const answer = await api<{ items: Purchase[] }>('/payments/library');
      if (answer.items.length === 0) return h('p', { class: 'muted' }, 'Nothing bought yet.');
      return h(
        'ol',
        { class: 'track-list', 'aria-label': 'Your purchases' },
        answer.items.map((p) =>
          h(
            'li',
            { 'data-purchase': p.id, 'data-status': p.status },
            p.track_id
              ? h('a', { href: `/tracks/${p.track_id}` }, p.track_title ?? 'Track')
              : 'A deleted track',
            h(
              'span',
              { class: 'muted' },
              ` ${p.kind === 'tip' ? 'tip' : 'bought'} · ${money(p.amount, p.currency)} · ${p.status} `,
            ),
            downloadButton(p),
          ),
        ),
      );
    }),
    h('p', {}, h('a', { href: '/me/sales' }, 'Your sales as an artist')),
  );
}

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

/** /me/sales: the artist's totals per currency, computed by the server from the ledger. */
export function renderSales(app: HTMLElement): void {
  document.title = 'Your sales · Music';
  clear(
    app,
    h('h1', {}, 'Your sales'),
    part('Totals per currency', 'sales', async () => {
      const answer = await api<{ totals: Totals[] }>('/payments/sales');
      if (answer.totals.length === 0) return h('p', { class: 'muted' }, 'No sales or tips yet.');
      const row = (t: Totals) =>
        h(
          'tr',
          { 'data-currency': t.currency },
          h('th', { scope: 'row' }, t.currency.toUpperCase()),
          h('td', {}, `${money(t.sales, t.currency)} (${t.sales_count})`),
          h('td', {}, `${money(t.tips, t.currency)} (${t.tips_count})`),
          h('td', {}, money(t.refunds + t.disputes, t.currency)),
          h('td', { 'data-testid': 'net' }, money(t.net, t.currency)),
        );
      return h(
        'table',
        {},
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ['Currency', 'Sales', 'Tips', 'Refunds and disputes', 'Net'].map((c) =>
              h('th', { scope: 'col' }, c),
            ),
          ),
        ),
        h('tbody', {}, answer.totals.map(row)),
      );
    }),
  );
}
