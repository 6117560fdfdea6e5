/**
 * Money as a person reads and types it: amounts are kept in minor units with a currency (as the
 * API answers them) but shown and asked in the currency's own terms ("$3.00", "3" or "3.00").
 */
import { CURRENCIES, CURRENCY_MINIMUM } from '../../../src/music/services/money';

export { CURRENCIES };

/** Digits after the decimal point of a currency (2 for eur, 0 for jpy). */
export function digits(currency: string): number {
  return (
    new Intl.NumberFormat('en', { style: 'currency', currency: currency.toUpperCase() }).resolvedOptions()
      .maximumFractionDigits ?? 2
  );
}

/** Minor units as a person reads them ("€7.00"). */
export function money(minor: number, currency: string): string {
  const d = digits(currency);
  return new Intl.NumberFormat(undefined, { style: 'currency', currency: currency.toUpperCase() }).format(
    minor / 10 ** d,
  );
}

/** Minor units as a field's text ("7.00"), the way a person would type it back. */
export function plain(minor: number, currency: string): string {
  const d = digits(currency);
  return (minor / 10 ** d).toFixed(d);
}

/** "7.5" in eur -> 750; undefined when it is not an amount (no floats: the digits are joined). */
export function toMinor(text: string, currency: string): number | undefined {
  const d = digits(currency);
  const m = /^([0-9]{1,8})(?:[.,]([0-9]+))?$/.exec(text.trim());
  if (!m || (m[2]?.length ?? 0) > d) return undefined;
  return Number(m[1]) * 10 ** d + Number((m[2] ?? '').padEnd(d, '0') || '0');
}

/** The smallest charge of a currency (the provider's), in minor units. */
export function smallest(currency: string): number {
  return CURRENCY_MINIMUM[currency.toLowerCase()] ?? 1;
}

/** What is wrong with a typed amount, in words and the currency's terms; undefined when it is fine. */
export function amountError(
  text: string,
  currency: string,
  atLeast = smallest(currency),
): string | undefined {
  const minor = toMinor(text, currency);
  const example = plain(Math.max(atLeast, smallest(currency)), currency);
  if (minor === undefined) return `Enter an amount in ${currency.toUpperCase()}, like ${example}.`;
  if (minor < atLeast) return `The amount must be at least ${money(atLeast, currency)}.`;
  if (minor > 99_999_999) return `The amount must be at most ${money(99_999_999, currency)}.`;
  return undefined;
}
