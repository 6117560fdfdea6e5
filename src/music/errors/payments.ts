/** The payment routes' errors (docs/payments.md). */
import { AppError, type FieldError } from '../../core/errors.js';

export const PAYMENT_SETTING_NAMES = [
  'PAYMENT_SECRET_KEY',
  'PAYMENT_PUBLISHABLE_KEY',
  'PAYMENT_WEBHOOK_SECRET',
] as const;
export const PAYMENT_SETTINGS = 'PAYMENT_SECRET_KEY, PAYMENT_PUBLISHABLE_KEY and PAYMENT_WEBHOOK_SECRET';

export const paymentsNotConfigured = () =>
  new AppError(
    'unavailable',
    `Payments are not configured on this server: set ${PAYMENT_SETTINGS} to turn them on.`,
  );

export const paymentProviderUnavailable = () =>
  new AppError('unavailable', 'The payment provider could not be reached; try again in a minute.', {
    headers: { 'retry-after': '60' },
  });

export const paymentQueueUnavailable = () =>
  new AppError(
    'unavailable',
    'The payment event could not be queued (the queue is down); it will be redelivered.',
    {
      headers: { 'retry-after': '30' },
    },
  );

export const badWebhookSignature = (why: string) =>
  new AppError('invalid_input', `The webhook signature was refused: ${why}.`);

export const badWebhookEvent = (why: string) =>
  new AppError('invalid_input', `The webhook body is not a usable event: ${why}.`);

export const paymentTrackNotFound = () =>
  new AppError('not_found', 'No track with this id (or it is private).');

export const notTrackManager = () =>
  new AppError('forbidden', "Only the track's owner or an admin may set its price.");

export const invalidMoney = (path: string, message: string) =>
  new AppError('invalid_input', `The amount is not accepted: ${message}.`, {
    errors: [{ path, message } satisfies FieldError],
  });

export const notForSale = () => new AppError('conflict', 'This track is not for sale.');

export const tipsOff = () => new AppError('conflict', "This track's artist does not accept tips.");

export const ownTrack = () => new AppError('conflict', 'You own this track; you cannot buy or tip it.');

export const noOriginal = () =>
  new AppError('conflict', 'This track has no uploaded original yet; there is nothing to buy or download.');

export const alreadyBought = () =>
  new AppError('conflict', 'You already bought this track; download it from your library.');

export const paymentUnderWay = () =>
  new AppError(
    'conflict',
    'Your payment for this track is under way (a bank payment can take a few days); it will be in your library once it clears.',
  );

export const checkoutOpenAtOtherAmount = (amountMinor: number, currency: string, until: Date) =>
  new AppError(
    'conflict',
    `Your checkout for this track is open at ${amountMinor} (${currency.toUpperCase()}, minor units) until ${until.toISOString()}; buy again at that amount to return to it, or choose another amount once it has expired.`,
  );
export const openSaleContended = () =>
  new AppError('unavailable', 'Your checkout for this track changed while it was being opened; try again.', {
    headers: { 'retry-after': '1' },
  });

export const purchaseNotFound = () =>
  new AppError('not_found', 'No purchase with this id (or it is not yours).');

export const downloadNotAllowed = () =>
  new AppError(
    'forbidden',
    "Only the track's owner, admins and people who bought it (and were not refunded) may download the original.",
  );

export const downloadLinkInvalid = () =>
  new AppError('forbidden', 'This download link is not valid (altered or incomplete); ask for a fresh one.');

export const downloadLinkExpired = () =>
  new AppError('gone', 'This download link has expired; ask for a fresh one from your library.');
