import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { describeBodySchema } from './schema-hint.js';

describe('describeBodySchema', () => {
  it('names each field, its type, whether it is required and its bounds or description', () => {
    const schema = Type.Object(
      {
        name: Type.String({ minLength: 1, maxLength: 10 }),
        tags: Type.Optional(Type.Array(Type.String(), { maxItems: 3 })),
        mode: Type.Union([Type.Literal('a'), Type.Literal('b')]),
        size: Type.Integer({ minimum: 0, description: 'bytes' }),
      },
      { additionalProperties: false },
    );
    expect(describeBodySchema(schema)).toBe(
      'a JSON object {"name": string (at least 1 characters, at most 10 characters), ' +
        '"tags" (optional): array of string (at most 3 items), "mode": one of "a", "b", ' +
        '"size": integer (bytes)}; no other fields.',
    );
  });

  it('describes a non-object body by its type and an enum by its values', () => {
    expect(describeBodySchema({ type: 'array', items: { type: 'number' } })).toBe('a JSON array of number.');
    expect(describeBodySchema({ enum: ['x', 1] })).toBe('a JSON one of "x", 1.');
  });
});
