/** Request bodies and parameters of /api/v1/payments. */
import { Type } from 'typebox';
import { CURRENCIES, MAX_AMOUNT_MINOR } from '../services/money.js';
import { UUID_PATTERN } from './text.js';

const Amount = Type.Integer({ minimum: 1, maximum: MAX_AMOUNT_MINOR, description: 'minor units (cents)' });
const Currency = Type.Union(
  CURRENCIES.map((c) => Type.Literal(c)),
  { description: `ISO 4217, lower-case: one of ${CURRENCIES.join(', ')}` },
);

// A path id that is not a UUID names nothing: a 404 from the service, not a 400.
export const PaymentTrackParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
export const PurchaseParams = Type.Object({ id: Type.String({ maxLength: 64 }) });
export const DownloadParams = Type.Object({ track_id: Type.String({ maxLength: 64 }) });

export const PriceBody = Type.Object(
  {
    currency: Currency,
    amount: Type.Union([Amount, Type.Null()]),
    pay_what_you_want: Type.Optional(Type.Boolean()),
    tips: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const CheckoutBody = Type.Object(
  {
    track_id: Type.String({ pattern: UUID_PATTERN }),
    kind: Type.Union([Type.Literal('sale'), Type.Literal('tip')]),
    amount: Type.Optional(Amount),
  },
  { additionalProperties: false },
);

export const DownloadQuery = Type.Object(
  {
    user: Type.Optional(Type.String({ maxLength: 64 })),
    expires: Type.Optional(Type.String({ maxLength: 20 })),
    sig: Type.Optional(Type.String({ maxLength: 100 })),
  },
  { additionalProperties: false },
);
