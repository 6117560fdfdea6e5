/**
 * Money: integer minor units with a currency, never floats. The currencies the platform takes,
 * each with the provider's smallest charge (in minor units; JPY has none below the yen) and the
 * largest amount its Checkout accepts (8 digits).
 */

export interface Money {
  /** ISO 4217, lower-case (as the provider spells it). */
  currency: string;
  /** Minor units: cents for usd, yen for jpy. */
  amountMinor: number;
}

/** Smallest charge per currency (the provider's documented minimums), in minor units. */
export const CURRENCY_MINIMUM: Readonly<Record<string, number>> = {
  usd: 50,
  eur: 50,
  gbp: 30,
  cad: 50,
  aud: 50,
  chf: 50,
  sek: 300,
  nok: 300,
  dkk: 250,
  jpy: 50,
};

export const CURRENCIES: readonly string[] = Object.keys(CURRENCY_MINIMUM);

/** The provider's largest amount (99,999,999 minor units). */
export const MAX_AMOUNT_MINOR = 99_999_999;

/**
 * An amount as a person reads it, in the currency's own terms ("$3.00", "¥500", "€0.50"): the one
 * formatter of every message that names an amount (never minor units).
 */
export function formatMoney(money: Money): string {
  const format = new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency: money.currency.toUpperCase(),
  });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(money.amountMinor / 10 ** digits);
}

/** What is wrong with an amount in a currency, or undefined when it can be charged. */
export function amountProblem(money: Money): string | undefined {
  const minimum = CURRENCY_MINIMUM[money.currency];
  if (minimum === undefined) return `currency must be one of ${CURRENCIES.join(', ')}`;
  if (!Number.isSafeInteger(money.amountMinor)) return 'amount must be a whole number of minor units';
  const at = (amountMinor: number) => formatMoney({ currency: money.currency, amountMinor });
  if (money.amountMinor < minimum)
    return `amount must be at least ${at(minimum)} (the smallest charge in ${money.currency.toUpperCase()})`;
  if (money.amountMinor > MAX_AMOUNT_MINOR) return `amount must be at most ${at(MAX_AMOUNT_MINOR)}`;
  return undefined;
}
