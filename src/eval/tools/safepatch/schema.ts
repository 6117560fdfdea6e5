import { Type, type Static } from 'typebox';

export const MAX_DOCUMENT_CHARS = 200_000;
export const MAX_OPERATIONS = 50;
export const MAX_ALLOWED_TOKENS = 100;

export const PatchOperation = Type.Object(
  {
    target_heading: Type.String({
      minLength: 1,
      maxLength: MAX_DOCUMENT_CHARS,
      description:
        'Heading text without the leading # characters (or ROOT for the text before the first heading); must name exactly one section',
    }),
    find: Type.String({
      minLength: 1,
      // Longer text cannot occur in a document within the bound.
      maxLength: MAX_DOCUMENT_CHARS,
      description: 'Literal text that must occur exactly once in the section body',
    }),
    replace: Type.String({
      maxLength: MAX_DOCUMENT_CHARS,
      description:
        'Replacement text, at most 200,000 characters; may be empty (deletes `find`). The patched document must also stay within 200,000 characters',
    }),
    allow_token_changes: Type.Optional(
      Type.Array(Type.String(), {
        maxItems: MAX_ALLOWED_TOKENS,
        description: 'Protected literal tokens this operation may intentionally remove or change',
      }),
    ),
  },
  { additionalProperties: false },
);

export const SafepatchRequest = Type.Object(
  {
    document: Type.String({
      minLength: 1,
      maxLength: MAX_DOCUMENT_CHARS,
      description: 'A complete Markdown (CommonMark) document',
    }),
    operations: Type.Array(PatchOperation, { minItems: 1, maxItems: MAX_OPERATIONS }),
    reason: Type.Optional(Type.String({ description: 'Why the patch is made; echoed in the receipt' })),
  },
  { additionalProperties: false },
);

export type SafepatchRequest = Static<typeof SafepatchRequest>;
export type PatchOperation = Static<typeof PatchOperation>;
