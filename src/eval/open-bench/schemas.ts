/** Request schemas of the open bench (start is the report card's shape: an optional challenge). */
import { Type, type Static } from 'typebox';
import { SESSION_ID_PATTERN, startRequest } from '../report-card/schemas.js';

// The receipt is hash-sealed, not signed: the challenge is in its result, under receipt_sha256.
export const OpenBenchStartRequest = startRequest("the receipt's result.challenge");
export type OpenBenchStartRequest = Static<typeof OpenBenchStartRequest>;

/** Relative paths of plain segments: no leading slash, no "." or ".." segment, no backslash. */
export const PATH_PATTERN = '^(?!\\.{1,2}(/|$))(?!.*/\\.{1,2}(/|$))[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*$';
const NO_CONTROL_BUT_WHITESPACE = '^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f]*$';
const TASK_ID = '^task-[1-6]$';

export const MAX_FILES_PER_ANSWER = 20;
export const MAX_FILE_CHARS = 20_000;

const FilePath = Type.String({ minLength: 1, maxLength: 200, pattern: PATH_PATTERN });

export const TaskAnswer = Type.Object(
  {
    writes: Type.Optional(
      Type.Record(
        Type.String({ pattern: PATH_PATTERN }),
        Type.String({ maxLength: MAX_FILE_CHARS, pattern: NO_CONTROL_BUT_WHITESPACE }),
        {
          maxProperties: MAX_FILES_PER_ANSWER,
          additionalProperties: false,
          description: 'path -> the whole new content of that file',
        },
      ),
    ),
    deletes: Type.Optional(
      Type.Array(FilePath, {
        maxItems: MAX_FILES_PER_ANSWER,
        uniqueItems: true,
        description: 'Paths deleted',
      }),
    ),
  },
  { additionalProperties: false },
);

const SideAnswers = Type.Record(Type.String({ pattern: TASK_ID }), TaskAnswer, {
  maxProperties: 6,
  additionalProperties: false,
  description: 'task_id -> {writes, deletes}; a task left out counts as failed',
});

export const Publish = Type.Object(
  {
    display_name: Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'Shown on the public leaderboard; plain text, no control characters',
    }),
    attestation: Type.Literal(true, {
      description: 'You attest that the two sides are the systems you name and the answers are theirs',
    }),
  },
  { additionalProperties: false },
);

export const OpenBenchSubmitRequest = Type.Object(
  {
    session_id: Type.String({ pattern: SESSION_ID_PATTERN, description: 'From open-bench start' }),
    baseline: SideAnswers,
    candidate: SideAnswers,
    publish: Type.Optional(Publish),
  },
  { additionalProperties: false },
);
export type OpenBenchSubmitRequest = Static<typeof OpenBenchSubmitRequest>;

export const LeaderboardQuery = Type.Object(
  {
    order: Type.Union([Type.Literal('newest'), Type.Literal('best')], { default: 'newest' }),
    page: Type.Integer({ minimum: 1, maximum: 10_000, default: 1 }),
    per_page: Type.Integer({ minimum: 1, maximum: 100, default: 20 }),
  },
  { additionalProperties: false },
);
export type LeaderboardQuery = Static<typeof LeaderboardQuery>;

export const PUBLIC_ID_PATTERN = '^ob_[A-Za-z0-9_-]{22}$';
