import { Type, type Static } from 'typebox';

export const MAX_EXAM = 5000;
export const MAX_EXPOSURE = 5000;

/** The content fields, in the order a row's content is chosen from (first present wins). */
export const CONTENT_FIELDS = ['prompt', 'content', 'input', 'task', 'question', 'expression'] as const;
export type ContentField = (typeof CONTENT_FIELDS)[number];

const Identity = Type.Union([Type.String({ minLength: 1 }), Type.Integer()], {
  description: 'Item identity: a non-empty string or an integer (compared as its decimal text)',
});

const contentProperties = {
  prompt: Type.Optional(Type.String({ minLength: 1 })),
  content: Type.Optional(Type.String({ minLength: 1 })),
  input: Type.Optional(Type.String({ minLength: 1 })),
  task: Type.Optional(Type.String({ minLength: 1 })),
  question: Type.Optional(Type.String({ minLength: 1 })),
  expression: Type.Optional(Type.String({ minLength: 1 })),
};

export const ExamRow = Type.Object(
  {
    item_id: Type.Optional(Identity),
    id: Type.Optional(Identity),
    ...contentProperties,
    domain: Type.Optional(Type.String()),
  },
  {
    additionalProperties: true,
    description:
      'An exam item: an identity (item_id, or id) and a content field (prompt, content, input, task, question or expression); extra properties are kept',
  },
);

export const ExposureRow = Type.Object(
  {
    item_id: Type.Optional(Identity),
    id: Type.Optional(Identity),
    ...contentProperties,
    source: Type.Optional(Type.String({ description: 'Where the content was exposed' })),
    path: Type.Optional(
      Type.String({ description: 'Where the content was exposed (used when source is absent)' }),
    ),
  },
  {
    additionalProperties: true,
    description: 'Declared exposure (training data, prompts, documents): an identity and/or a content field',
  },
);

/** The leakage request's fields, shared with inspect. */
export const leakageFields = {
  exam: Type.Array(ExamRow, { minItems: 1, maxItems: MAX_EXAM, description: 'The exam; 1 to 5000 rows' }),
  exposure: Type.Array(ExposureRow, {
    maxItems: MAX_EXPOSURE,
    default: [],
    description: 'Declared exposure; 0 to 5000 rows',
  }),
  enable_behavioral_fingerprint: Type.Boolean({
    default: true,
    description: 'Tier 2: quarantine DSL expressions that behave identically on every small graph',
  }),
  enable_text_similarity: Type.Boolean({
    default: true,
    description: 'Tier 3: send textually similar items to review (never quarantine)',
  }),
  fingerprint_max_n: Type.Integer({
    minimum: 3,
    maximum: 5,
    default: 4,
    description: 'Fingerprints cover every labelled graph with 1..n vertices (11, 75 or 1099 graphs)',
  }),
  similarity_threshold: Type.Number({
    minimum: 0.5,
    maximum: 1,
    default: 0.6,
    description: 'Review matches scoring at least this (0.6 Jaccard + 0.4 overlap coefficient)',
  }),
};

export const LeakageRequest = Type.Object(leakageFields, { additionalProperties: false });

export type LeakageRequest = Static<typeof LeakageRequest>;
export type ExamRow = Static<typeof ExamRow>;
export type ExposureRow = Static<typeof ExposureRow>;
/** The part of a request the audit reads (leakage and inspect both have it). */
export type LeakageOptions = Pick<
  LeakageRequest,
  | 'exam'
  | 'exposure'
  | 'enable_behavioral_fingerprint'
  | 'enable_text_similarity'
  | 'fingerprint_max_n'
  | 'similarity_threshold'
>;
