/**
 * The OpenAPI 3.1.0 document, generated from the same TypeBox schemas that validate
 * requests, so the published contract cannot drift from the enforced one.
 */
import type { TSchema } from 'typebox';
import { SERVICE_VERSION } from '../core/receipt.js';
import { LogsGateOptions } from './harness-logs/options.js';
import { MAX_LOG_BYTES } from './harness-logs/upload.js';
import { TOOLS } from './registry.js';
import { batchPath, batchSchemas } from './batch/openapi.js';
import { BATCH_PATH } from './routes/batch.js';
import { LOG_ENDPOINTS } from './open-bench/log/endpoints.js';
import {
  LeaderboardQuery,
  OpenBenchStartRequest,
  OpenBenchSubmitRequest,
  PUBLIC_ID_PATTERN,
} from './open-bench/schemas.js';
import { GATE_LOGS_PATH } from './routes/gate-logs.js';
import { ReportCardSubmitRequest, StartRequest } from './report-card/schemas.js';

/** TypeBox schemas carry symbol keys; JSON round-tripping leaves plain JSON Schema. */
function plain(schema: TSchema): object {
  return JSON.parse(JSON.stringify(schema)) as object;
}

const problemSchema = {
  type: 'object',
  required: ['type', 'title', 'status', 'detail'],
  properties: {
    type: { type: 'string' },
    title: { type: 'string' },
    status: { type: 'integer' },
    detail: { type: 'string' },
    code: { type: 'string' },
    hint: { type: 'string' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['path', 'message'],
        properties: {
          path: { type: 'string', description: 'JSON pointer into the body' },
          message: { type: 'string' },
        },
      },
    },
  },
};

const receiptSchema = {
  type: 'object',
  required: [
    'receipt_version',
    'tool',
    'service_version',
    'status',
    'summary',
    'decision_path',
    'items',
    'result',
    'next_action',
    'hashes',
  ],
  properties: {
    receipt_version: { const: 1 },
    tool: { type: 'string' },
    service_version: { type: 'string' },
    verdict: { enum: ['PASS', 'HOLD', 'BLOCK'] },
    status: { type: 'string' },
    summary: { type: 'object' },
    decision_path: {
      type: 'array',
      items: {
        type: 'object',
        required: ['rule', 'outcome', 'detail'],
        properties: {
          rule: { type: 'string' },
          outcome: { enum: ['pass', 'fail', 'skip', 'info'] },
          detail: { type: 'string' },
        },
      },
    },
    items: {
      type: 'array',
      items: {
        type: 'object',
        required: ['item_id', 'decision', 'reasons'],
        properties: {
          item_id: { type: 'string' },
          decision: { type: 'string' },
          reasons: { type: 'array', items: { type: 'string' } },
        },
      },
    },
    result: { type: 'object' },
    next_action: { type: 'string' },
    hashes: {
      type: 'object',
      required: ['canonicalization', 'algorithm', 'request_sha256', 'result_sha256', 'receipt_sha256'],
      properties: {
        canonicalization: { const: 'RFC8785' },
        algorithm: { const: 'sha256' },
        request_sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
        items_sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
        result_sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
        receipt_sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
      },
    },
  },
};

const problem = (description: string): object => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
});

function jsonGet(operationId: string, summary: string): object {
  return {
    get: {
      operationId,
      summary,
      responses: {
        '200': { description: 'OK', content: { 'application/json': { schema: { type: 'object' } } } },
      },
    },
  };
}

function sessionPost(
  operationId: string,
  summary: string,
  schema: string,
  extra: Record<string, object>,
  tag = 'report-card',
): object {
  return {
    post: {
      operationId,
      summary,
      tags: [tag],
      requestBody: {
        required: true,
        content: { 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } },
      },
      responses: {
        '200': { description: 'OK', content: { 'application/json': { schema: { type: 'object' } } } },
        '400': problem('Input error, with a hint'),
        ...extra,
      },
    },
  };
}

function reportCardPaths(): Record<string, object> {
  return {
    '/api/report-card/start': sessionPost(
      'reportCardStart',
      'A one-shot session of six conjecture-repair items',
      'ReportCardStartRequest',
      { '429': problem('Rate limited, too many live sessions, or warming; see Retry-After') },
    ),
    '/api/report-card/submit': sessionPost(
      'reportCardSubmit',
      'Grades a session once; the result signed with Ed25519',
      'ReportCardSubmitRequest',
      {
        '404': problem('No such session'),
        '409': problem('Already graded'),
        '410': problem('Expired'),
        '429': problem('Rate limited or warming; see Retry-After'),
      },
    ),
  };
}

const noLedger = problem('No ledger (DATABASE_URL unset) or the database is down; see Retry-After');

function openBenchPaths(): Record<string, object> {
  const ok = { description: 'OK', content: { 'application/json': { schema: { type: 'object' } } } };
  return {
    '/api/open-bench/start': sessionPost(
      'openBenchStart',
      'A one-shot session: a virtual repository and six scope-integrity tasks',
      'OpenBenchStartRequest',
      { '429': problem('Rate limited or too many live sessions; see Retry-After') },
      'open-bench',
    ),
    '/api/open-bench/submit': sessionPost(
      'openBenchSubmit',
      'Grades both sides once; the paired verdict in a hash-sealed receipt; optional publication',
      'OpenBenchSubmitRequest',
      {
        '404': problem('No such session'),
        '409': problem('Already graded'),
        '410': problem('Expired'),
        '429': problem('Rate limited; see Retry-After'),
        '503': noLedger,
      },
      'open-bench',
    ),
    '/api/open-bench/leaderboard': {
      get: {
        operationId: 'openBenchLeaderboard',
        summary: 'Opt-in, self-attested public receipts, newest or best first',
        tags: ['open-bench'],
        parameters: Object.entries(
          (plain(LeaderboardQuery) as { properties: Record<string, object> }).properties,
        ).map(([name, schema]) => ({ name, in: 'query', required: false, schema })),
        responses: { '200': ok, '400': problem('Bad query, with a hint'), '503': noLedger },
      },
    },
    '/api/open-bench/receipt/{public_id}': {
      get: {
        operationId: 'openBenchReceipt',
        summary: 'One sanitized public receipt',
        tags: ['open-bench'],
        parameters: [
          {
            name: 'public_id',
            in: 'path',
            required: true,
            schema: { type: 'string', pattern: PUBLIC_ID_PATTERN },
          },
        ],
        responses: {
          '200': ok,
          '400': problem('Not a public id'),
          '404': problem('No such receipt'),
          '503': noLedger,
        },
      },
    },
  };
}

/** The log's read routes, from their descriptors (open-bench/log/endpoints.ts). */
function openBenchLogPaths(): Record<string, object> {
  const ok = { description: 'OK', content: { 'application/json': { schema: { type: 'object' } } } };
  return Object.fromEntries(
    LOG_ENDPOINTS.map((e) => {
      const schema = plain(e.query) as { properties: Record<string, object>; required?: string[] };
      return [
        e.path,
        {
          get: {
            operationId: e.operationId,
            summary: e.title,
            description: e.description,
            tags: ['open-bench'],
            parameters: Object.entries(schema.properties).map(([name, s]) => ({
              name,
              in: 'query',
              required: schema.required?.includes(name) ?? false,
              schema: s,
            })),
            responses: {
              '200': ok,
              '400': problem(
                'A size or index out of range, not a whole number, or a range too large; the detail says what to ask',
              ),
              '404': problem('The log is empty, or no such entry'),
              '503': noLedger,
            },
          },
        },
      ];
    }),
  );
}

export function buildOpenApi(): object {
  const paths: Record<string, object> = {};
  for (const t of TOOLS) {
    paths[t.path] = {
      post: {
        operationId: t.operationId,
        summary: t.promise,
        tags: ['tools'],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: { $ref: `#/components/schemas/${t.id}Request` },
              example: t.example,
            },
          },
        },
        responses: {
          '200': {
            description: 'Receipt',
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Receipt' } } },
          },
          '400': problem('Input error; `hint` points at /api/examples'),
          '413': problem('Body larger than EVAL_BODY_LIMIT'),
          '415': problem('Body is not application/json'),
          '429': problem('Rate limited; see Retry-After'),
        },
      },
    };
  }
  paths[BATCH_PATH] = batchPath();
  paths[GATE_LOGS_PATH] = {
    post: {
      operationId: 'gateLogs',
      summary: 'The promotion gate on two evaluation-harness logs (format detected from the bytes)',
      tags: ['tools'],
      requestBody: {
        required: true,
        content: {
          'multipart/form-data': {
            schema: {
              type: 'object',
              required: ['baseline', 'candidate'],
              properties: {
                baseline: {
                  type: 'string',
                  format: 'binary',
                  description: `A harness log, up to ${MAX_LOG_BYTES} bytes`,
                },
                candidate: {
                  type: 'string',
                  format: 'binary',
                  description: `A harness log, up to ${MAX_LOG_BYTES} bytes`,
                },
                options: { $ref: '#/components/schemas/gateLogsOptions' },
                exposure: {
                  type: 'string',
                  format: 'binary',
                  description:
                    'Declared exposure (the leakage tool\'s rows as a JSON array, JSONL, or {"exposure": [...], tier options}): the clean cohort is gated beside the full one and its verdict is the receipt\'s (docs/harness-logs.md)',
                },
              },
            },
            encoding: { options: { contentType: 'application/json' } },
          },
        },
      },
      responses: {
        '200': {
          description: 'Receipt; result.sources describes each log',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Receipt' } } },
        },
        '400': problem(
          'Unknown or ambiguous format, unreadable log, unknown scorer/metric/filter, bad options, bad exposure',
        ),
        '413': problem('A file above 64 MB, or more than three files (baseline, candidate, exposure)'),
        '415': problem('Not multipart/form-data'),
        '429': problem('Rate limited; see Retry-After'),
      },
    },
  };
  paths['/api/catalog'] = jsonGet('catalog', 'The verifier tools');
  paths['/api/examples'] = jsonGet('examples', 'A complete valid request per tool');
  // The seed reuses operationId `health` for GET /api/health too; OpenAPI requires unique ids.
  paths['/api/health'] = jsonGet('serviceHealth', 'Service health, version, pool load');
  paths['/api/stats'] = jsonGet('stats', 'Aggregate usage counters (no payload data)');
  Object.assign(paths, reportCardPaths(), openBenchPaths(), openBenchLogPaths());
  paths['/.well-known/receipt-keys.json'] = jsonGet(
    'receiptKeys',
    'Ed25519 keys (JWK set) of signed results',
  );
  paths['/llms.txt'] = jsonGet('llmsTxt', 'A plain-text guide for agents');
  const schemas: Record<string, object> = { Problem: problemSchema, Receipt: receiptSchema };
  schemas.ReportCardStartRequest = plain(StartRequest);
  schemas.ReportCardSubmitRequest = plain(ReportCardSubmitRequest);
  schemas.OpenBenchStartRequest = plain(OpenBenchStartRequest);
  schemas.OpenBenchSubmitRequest = plain(OpenBenchSubmitRequest);
  for (const t of TOOLS) schemas[`${t.id}Request`] = plain(t.schema);
  schemas.gateLogsOptions = plain(LogsGateOptions);
  Object.assign(schemas, batchSchemas());
  return {
    openapi: '3.1.0',
    info: {
      title: 'Evaluation tools service',
      version: SERVICE_VERSION,
      description:
        'Stateless, verifier-grounded tools for evaluating AI systems; every answer is a deterministic, hash-sealed receipt.',
    },
    paths,
    components: { schemas },
  };
}
