import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { LINE_PATTERN, UUID_PATTERN } from './text-patterns.js';
import { compileValidator } from './validation.js';

const Body = Type.Object(
  {
    handle: Type.Optional(Type.String({ pattern: '^[a-z]{3}$', description: '3 letters (a to z)' })),
    title: Type.Optional(Type.String({ pattern: LINE_PATTERN })),
    id: Type.Optional(Type.String({ pattern: UUID_PATTERN })),
    email: Type.Optional(Type.String({ format: 'email' })),
    visibility: Type.Optional(
      Type.Union([Type.Literal('public'), Type.Literal('unlisted'), Type.Literal('private')]),
    ),
    date: Type.Optional(Type.Union([Type.String({ format: 'partial-date' }), Type.Null()])),
    position_ms: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
  },
  { additionalProperties: false },
);
const validator = compileValidator(Body);

function messages(body: unknown): Record<string, string> {
  try {
    validator.assert(body);
  } catch (err) {
    const e = err as { errors: { path: string; message: string }[]; message: string };
    expect(e.message).not.toMatch(/see errors|\^|\$|\\u/);
    return Object.fromEntries(e.errors.map((x) => [x.path, x.message]));
  }
  throw new Error('accepted');
}

describe('field messages', () => {
  it('say what a field accepts in words, never a regular expression or ajv wording', () => {
    const m = messages({
      handle: 'x!',
      title: 'a\u0001b',
      id: 'nope',
      email: 'not-an-email',
      visibility: 'publik',
    });
    expect(m['/handle']).toBe('is "x!"; it must be 3 letters (a to z)');
    expect(m['/title']).toBe('is "a\u0001b"; it must be one line of text without control characters');
    expect(m['/id']).toMatch(/an id: 32 hexadecimal digits/);
    expect(m['/email']).toBe('is "not-an-email"; it must be an email address, like name@example.org');
    expect(m['/visibility']).toBe('is "publik"; it must be "public", "unlisted" or "private"');
    for (const text of Object.values(m))
      expect(text).not.toMatch(/pattern|\^|must match|equal to constant|\[/);
  });

  it('dates are real dates; too large a number is named as such', () => {
    expect(messages({ date: '2020-13-45' })['/date']).toBe(
      'is "2020-13-45"; it must be a date: a year (2020), a month (2020-07) or a day (2020-07-14) or null (to clear it)',
    );
    expect(messages({ date: '2021-02-29' })['/date']).toMatch(/must be a date/);
    for (const date of ['2020', '2020-07', '2020-02-29', null]) expect(validator({ date })).toBe(true);
    expect(messages(JSON.parse('{"position_ms": 1e400}'))['/position_ms']).toBe(
      'is a number too large to read; it must be a whole number from 0 to 1000',
    );
    expect(messages({ position_ms: 1001 })['/position_ms']).toBe(
      'is the number 1001; it must be a whole number from 0 to 1000',
    );
  });

  it('the detail names every field', () => {
    try {
      validator.assert({ handle: 'x', email: 'y' });
    } catch (err) {
      expect((err as Error).message).toBe(
        'The request body is invalid. Check handle and email: handle is "x"; it must be 3 letters (a to z).',
      );
    }
  });
});
