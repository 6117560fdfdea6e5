/**
 * "Sell this track" in Manage this track: not for sale, a fixed price, or pay what you want with a
 * minimum; the currency; tips on or off (PUT /payments/tracks/:id). Amounts are typed as a person
 * writes them ("3" or "3.00" is three dollars) and sent in minor units.
 */
import { h, clear } from '../../shared/dom';
import { ProblemError } from '../../shared/http';
import { api, problemText, type Track } from './api';
import { amountError, CURRENCIES, money, plain, smallest, toMinor } from './money';

interface Price {
  currency: string | null;
  amount: number | null;
  for_sale: boolean;
  pay_what_you_want: boolean;
  tips: boolean;
}

type Mode = 'none' | 'fixed' | 'pwyw';

function summary(p: Price): string {
  const tips = p.tips ? ' Tips are on.' : ' Tips are off.';
  if (!p.currency || p.amount === null) return `Not for sale.${p.currency ? tips : ''}`;
  const amount = money(p.amount, p.currency);
  return `${p.pay_what_you_want ? `Pay what you want, at least ${amount}.` : `For sale at ${amount}.`}${tips}`;
}

export function sellPart(track: Track): HTMLElement {
  const box = h(
    'section',
    { 'data-part': 'selling', 'aria-label': 'Sell this track' },
    h('h3', {}, 'Sell this track'),
    h('p', { class: 'muted' }, 'Loading…'),
  );
  void api<{ enabled: boolean }>('/payments')
    .then(async (s) => {
      if (!s.enabled) {
        clear(
          box,
          h('h3', {}, 'Sell this track'),
          h('p', { class: 'muted' }, 'This server does not take payments.'),
        );
        return;
      }
      const price = await api<Price>(`/payments/tracks/${encodeURIComponent(track.id)}`);
      clear(box, h('h3', {}, 'Sell this track'), sellForm(track, price));
    })
    .catch((err: unknown) =>
      clear(box, h('h3', {}, 'Sell this track'), h('p', { class: 'error' }, problemText(err))),
    )
    .finally(() => (box.dataset.state = 'ready'));
  return box;
}

function sellForm(track: Track, price: Price): HTMLElement {
  const mode: Mode = price.amount === null ? 'none' : price.pay_what_you_want ? 'pwyw' : 'fixed';
  const radios = (
    [
      ['none', 'Not for sale'],
      ['fixed', 'Fixed price'],
      ['pwyw', 'Pay what you want, with a minimum'],
    ] as const
  ).map(([value, label]) => {
    const input = h('input', {
      type: 'radio',
      name: 'sale-mode',
      id: `sale-${value}`,
      value,
      checked: value === mode,
    });
    return h('span', { class: 'row choice' }, input, h('label', { for: `sale-${value}` }, label));
  });
  const currency = h(
    'select',
    { id: 'sale-currency', name: 'currency' },
    CURRENCIES.map((c) =>
      h('option', { value: c, selected: c === (price.currency ?? 'usd') }, c.toUpperCase()),
    ),
  );
  const amountLabel = h('label', { for: 'sale-amount' }, 'Price');
  const amount = h('input', {
    type: 'text',
    inputmode: 'decimal',
    id: 'sale-amount',
    name: 'amount',
    size: 8,
    value: price.amount !== null && price.currency ? plain(price.amount, price.currency) : '',
  });
  const tips = h('input', { type: 'checkbox', id: 'sale-tips', checked: price.tips });
  const status = h('p', { role: 'status', 'data-testid': 'selling-status' }, summary(price));
  const chosen = (): Mode =>
    (radios.map((r) => r.querySelector('input')!).find((i) => i.checked)?.value as Mode | undefined) ??
    'none';
  const amountRow = h('div', { class: 'row' }, amountLabel, amount, h('span', { class: 'muted' }, ''));
  const showMode = (): void => {
    const m = chosen();
    amountRow.hidden = m === 'none';
    amountLabel.textContent = m === 'pwyw' ? 'Minimum price' : 'Price';
    amountRow.lastElementChild!.textContent = `in ${currency.value.toUpperCase()}, like ${plain(Math.max(smallest(currency.value), 100), currency.value)}`;
  };
  for (const r of radios) r.addEventListener('change', showMode);
  currency.addEventListener('change', showMode);
  showMode();
  const form = h(
    'form',
    { class: 'stack', novalidate: true, 'aria-label': 'Sell this track' },
    h('fieldset', {}, h('legend', {}, 'Sale'), radios),
    h('div', { class: 'row' }, h('label', { for: 'sale-currency' }, 'Currency'), currency),
    amountRow,
    h('span', { class: 'row' }, tips, h('label', { for: 'sale-tips' }, 'Accept tips')),
    status,
    h('button', { type: 'submit', class: 'primary' }, 'Save the price'),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const m = chosen();
    const c = currency.value;
    let minor: number | null = null;
    if (m !== 'none') {
      const problem = amountError(amount.value, c);
      if (problem) {
        status.className = 'error';
        status.textContent = problem;
        amount.setAttribute('aria-invalid', 'true');
        return;
      }
      minor = toMinor(amount.value, c)!;
    }
    amount.removeAttribute('aria-invalid');
    api<Price>(`/payments/tracks/${encodeURIComponent(track.id)}`, {
      method: 'PUT',
      body: JSON.stringify({
        currency: c,
        amount: minor,
        pay_what_you_want: m === 'pwyw',
        tips: tips.checked,
      }),
    }).then(
      (saved) => {
        status.className = '';
        status.textContent = `Saved. ${summary(saved)}`;
      },
      (err: unknown) => {
        status.className = 'error';
        status.textContent = err instanceof ProblemError ? problemText(err) : String(err);
      },
    );
  });
  return form;
}
