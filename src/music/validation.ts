/**
 * Route schema compilation for the music API. Bodies: ajv strict, no coercion, and unknown
 * properties REJECTED (fastify's default ajv silently removes them, which would hide a
 * client's typo). Query strings and path parameters arrive as text, so they are coerced
 * ("20" -> 20) but otherwise held to the same strictness.
 */
import { Ajv } from 'ajv';
import addFormatsImport from 'ajv-formats';
import type { FastifyInstance } from 'fastify';
import { createAjv } from '../core/validation.js';

const addFormats = addFormatsImport as unknown as (ajv: Ajv) => Ajv;

export function registerMusicValidators(app: FastifyInstance): void {
  const bodyAjv = createAjv();
  const textAjv = addFormats(
    new Ajv({ strict: true, allErrors: true, useDefaults: true, coerceTypes: true }),
  );
  app.setValidatorCompiler(({ schema, httpPart }) =>
    (httpPart === 'body' ? bodyAjv : textAjv).compile(schema),
  );
}
