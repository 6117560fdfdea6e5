/** Request schemas of the report card (and the open bench's start, which is the same shape). */
import { Type, type Static } from 'typebox';

/** Printable text: no control characters (tab and newline allowed where stated). */
const NO_CONTROL = '^[^\\u0000-\\u001f\\u007f]*$';
const NO_CONTROL_BUT_WHITESPACE = '^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f]*$';

export const SESSION_ID_PATTERN = '^[A-Za-z0-9_-]{32}$';

/** A start body: an optional challenge of the caller's, echoed where `echoedIn` says. */
export const startRequest = (echoedIn: string) =>
  Type.Object(
    {
      challenge: Type.Optional(
        Type.String({
          minLength: 8,
          maxLength: 128,
          pattern: NO_CONTROL,
          description: `Echoed in the session and ${echoedIn} (e.g. a nonce of yours)`,
        }),
      ),
    },
    { additionalProperties: false },
  );

export const StartRequest = startRequest('the signed result');
export type StartRequest = Static<typeof StartRequest>;

export const ReportCardSubmitRequest = Type.Object(
  {
    session_id: Type.String({ pattern: SESSION_ID_PATTERN, description: 'From report-card start' }),
    answers: Type.Record(
      Type.String({ pattern: '^item-[1-6]$' }),
      Type.String({ minLength: 1, maxLength: 500, pattern: NO_CONTROL_BUT_WHITESPACE }),
      {
        maxProperties: 6,
        additionalProperties: false,
        description: 'item_id -> repair predicate in the graph DSL',
      },
    ),
  },
  { additionalProperties: false },
);
export type ReportCardSubmitRequest = Static<typeof ReportCardSubmitRequest>;
