/**
 * Prints eval's OpenAPI document, built from the tool registry with no service started: the
 * typed client's generator reads it (clients/typescript/scripts/generate-types.mjs).
 */
import { buildOpenApi } from '../eval/openapi.js';

process.stdout.write(JSON.stringify(buildOpenApi(), null, 2) + '\n');
