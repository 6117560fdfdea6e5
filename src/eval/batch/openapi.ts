/** The batch endpoint in the OpenAPI document: its path and its line schemas. */
import { TOOLS } from '../registry.js';
import { MAX_BATCH_LINES, MAX_ID_LENGTH } from './lines.js';

const ref = (name: string): object => ({ $ref: `#/components/schemas/${name}` });

export function batchSchemas(): Record<string, object> {
  const id = {
    type: 'string',
    minLength: 1,
    maxLength: MAX_ID_LENGTH,
    description: 'Echoed on the answer line',
  };
  return {
    BatchLine: {
      description: 'One input line: a tool request as its endpoint takes it, named by id.',
      oneOf: TOOLS.map((t) => ({
        type: 'object',
        required: ['id', 'tool', 'request'],
        additionalProperties: false,
        properties: { id, tool: { const: t.id }, request: ref(`${t.id}Request`) },
      })),
    },
    BatchResult: {
      description: 'One output line, in input order: the receipt its endpoint would answer, or a problem.',
      oneOf: [
        {
          type: 'object',
          required: ['id', 'status', 'receipt'],
          properties: { id: { type: 'string' }, status: { const: 200 }, receipt: ref('Receipt') },
        },
        {
          type: 'object',
          required: ['id', 'status', 'problem'],
          properties: {
            id: { type: ['string', 'null'], description: 'null when the line had no readable id' },
            status: { type: 'integer', minimum: 400 },
            problem: ref('Problem'),
          },
        },
      ],
    },
  };
}

const problem = (description: string): object => ({
  description,
  content: { 'application/problem+json': { schema: ref('Problem') } },
});

export function batchPath(): object {
  return {
    post: {
      operationId: 'batch',
      summary: `Many tool calls in one request: NDJSON lines in, NDJSON answers out in input order, streamed (up to ${MAX_BATCH_LINES} lines)`,
      description:
        'Each line runs exactly as its tool endpoint runs it and gives the same receipt bytes. A bad line is a problem line; the batch goes on. Lines count against the rate limit one by one; past it the stream slows to the allowed rate. Stop reading or disconnect and no further lines are started.',
      tags: ['tools'],
      requestBody: {
        required: true,
        content: { 'application/x-ndjson': { schema: ref('BatchLine') } },
      },
      responses: {
        '200': {
          description: 'One line per input line, in input order; header x-batch-lines gives their number',
          content: { 'application/x-ndjson': { schema: ref('BatchResult') } },
        },
        '400': problem('Empty batch'),
        '413': problem(`More than ${MAX_BATCH_LINES} lines, or a body larger than EVAL_BODY_LIMIT`),
        '415': problem('Body is not application/x-ndjson'),
        '429': problem('Rate limited before the first line; see Retry-After'),
      },
    },
  };
}
