/**
 * Integers sent as text (a query string or path parameter): ajv's coercion reads them with
 * Number(), which also takes "0x10", "1e2", "+5" and " 5"; this is the one check, on the text as
 * sent, that each is decimal digits (a minus only where the field allows negatives). Used by the
 * music API's query and path validators and by core/validation.ts's `queryText` validators (eval).
 */
import type { ErrorObject } from 'ajv';
import { pointerToken } from './errors.js';
import { MESSAGES } from './field-messages.js';
import { isDecimalInteger } from './text-patterns.js';

type PropertySchema = Record<string, unknown>;

export function propertiesOf(schema: unknown): Record<string, PropertySchema> {
  return (schema as { properties?: Record<string, PropertySchema> }).properties ?? {};
}

function negativesAllowed(s: PropertySchema): boolean {
  if (typeof s.minimum === 'number') return s.minimum < 0;
  return !(typeof s.exclusiveMinimum === 'number' && s.exclusiveMinimum >= -1);
}

/**
 * ajv's coercion reads text with Number(), which takes "0x10", "1e2", "+5" and " 5" too: checked
 * before it, on the text as sent, every integer of a query or path is decimal digits.
 */
export function integerSpellingErrors(data: unknown, schema: unknown): ErrorObject[] {
  if (data === null || typeof data !== 'object') return [];
  const properties = propertiesOf(schema);
  return Object.entries(data).flatMap(([k, v]): ErrorObject[] => {
    const s = properties[k];
    if (typeof v !== 'string' || s?.type !== 'integer') return [];
    const negatives = negativesAllowed(s);
    if (isDecimalInteger(v, negatives)) return [];
    return [
      {
        instancePath: `/${pointerToken(k)}`,
        schemaPath: '#/decimalInteger',
        keyword: 'decimalInteger',
        params: {},
        data: v,
        parentSchema: s,
        message: MESSAGES.notDecimalInteger(s, negatives),
      },
    ];
  });
}
