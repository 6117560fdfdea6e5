/**
 * Route schema compilation for the music API. Bodies: ajv strict, no coercion, and unknown
 * properties REJECTED (fastify's default ajv silently removes them, which would hide a
 * client's typo). Query strings and path parameters arrive as text, so they are coerced
 * ("20" -> 20) but otherwise held to the same strictness; an integer there must be written in
 * decimal digits ("0x10", "1e2", "+5" and " 5" are refused, not read as numbers). Every part is then checked for
 * control and invisible formatting characters in its strings (core/text-safety.ts).
 */
import type { ErrorObject, ValidateFunction } from 'ajv';
import type { FastifyInstance } from 'fastify';
import { invalidInput, pointerToken } from '../core/errors.js';
import { textSafetyErrors } from '../core/text-safety.js';
import { integerSpellingErrors, propertiesOf } from '../core/query-integers.js';
import { MESSAGES } from '../core/field-messages.js';
import { createAjv, createQueryAjv } from '../core/validation.js';

type Validate = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/**
 * ajv coerces "1e400" to Infinity and then lets it through `type: integer` and `maximum`; a
 * query or path number must be finite (JSON bodies cannot hold Infinity).
 */
function nonFiniteErrors(data: unknown, schema: unknown): ErrorObject[] {
  if (data === null || typeof data !== 'object') return [];
  const properties = propertiesOf(schema);
  return Object.entries(data)
    .filter(([, v]) => typeof v === 'number' && !Number.isFinite(v))
    .map(([k]) => ({
      instancePath: `/${pointerToken(k)}`,
      schemaPath: '#/finite',
      keyword: 'finite',
      params: {},
      message: MESSAGES.notFinite(properties[k]),
    }));
}

function withTextSafety(fn: ValidateFunction, textPart: boolean, schema: unknown): Validate {
  const validate: Validate = (data) => {
    const spelling = textPart ? integerSpellingErrors(data, schema) : [];
    if (spelling.length > 0) {
      validate.errors = spelling;
      return false;
    }
    if (!fn(data)) {
      validate.errors = fn.errors ?? null;
      return false;
    }
    const errors = textPart
      ? [...nonFiniteErrors(data, schema), ...textSafetyErrors(data)]
      : textSafetyErrors(data);
    validate.errors = errors.length > 0 ? errors : null;
    return errors.length === 0;
  };
  return validate;
}

export function registerMusicValidators(app: FastifyInstance): void {
  const bodyAjv = createAjv();
  const textAjv = createQueryAjv();
  app.setValidatorCompiler(({ schema, httpPart }) =>
    withTextSafety((httpPart === 'body' ? bodyAjv : textAjv).compile(schema), httpPart !== 'body', schema),
  );
}

/**
 * For routes that take no body (logout): none, or an empty JSON object. Anything else is a 400,
 * as an unknown property is on every other route.
 */
export function assertNoBodyFields(body: unknown): void {
  if (body === undefined || body === null) return;
  if (typeof body !== 'object' || Array.isArray(body)) {
    throw invalidInput('This endpoint takes no request body; send none or {}.', [
      { path: '', message: MESSAGES.noBody },
    ]);
  }
  const keys = Object.keys(body);
  if (keys.length > 0) {
    throw invalidInput('This endpoint takes no request body fields; send none or {}.', [
      ...keys.slice(0, 20).map((k) => ({
        path: `/${pointerToken(k)}`,
        message: MESSAGES.unknownProperty(k),
      })),
    ]);
  }
}
