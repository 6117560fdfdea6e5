/**
 * Buying and tipping (docs/payments.md): the buy/tip controls on a track page (none when the
 * server has no payment settings or the track is not for sale), the Checkout outcome page
 * (/purchases/<id>), the buyer's purchases (/me/purchases) and the artist's sales (/me/sales).
 * Checkout itself is the provider's page: the player only redirects there and back.
 */
import { h, clear } from '../../shared/dom';
import { ProblemError } from '../../shared/http';
import { api, problemText, session, type TrackPage } from './api';
import { amountError, money, plain, toMinor } from './money';
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

/** An amount typed in the currency's terms ("3", "3.00", "3,50"), checked before the checkout opens. */
function amountForm(
  label: string,
  button: string,
  price: Price,
  initial: number,
  atLeast: number | undefined,
  submit: (minor: number) => void,
  status: HTMLElement,
): HTMLElement {
  const currency = price.currency!;
  const input = h('input', {
    type: 'text',
    inputmode: 'decimal',
    name: 'amount',
    'aria-label': `${label} (${currency.toUpperCase()})`,
    value: plain(initial, currency),
    size: 8,
  });
  return h(
    'form',
    {
      class: 'inline row',
      onsubmit: (event: Event) => {
        event.preventDefault();
        const problem = amountError(input.value, currency, atLeast);
        const minor = toMinor(input.value, currency);
        if (problem || minor === undefined) {
          status.textContent = problem ?? '';
          status.className = 'error';
          return;
        }
        submit(minor);
      },
    },
    h('label', {}, `${label} `, input),
    atLeast !== undefined ? h('span', { class: 'muted' }, `at least ${money(atLeast, currency)}`) : null,
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
    : track.owned
      ? h(
          'p',
          { class: 'owned', 'data-testid': 'owned' },
          'You own this · ',
          h(
            'button',
            {
              type: 'button',
              class: 'link',
              'data-testid': 'download',
              onclick: () => void download(track.id, status),
            },
            'Download',
          ),
        )
      : price.pay_what_you_want
        ? amountForm(
            'Pay what you want',
            'Buy',
            price,
            price.amount!,
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
        undefined,
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
