/** Read-only service endpoints: catalog, examples, health, stats. */
import type { FastifyInstance } from 'fastify';
import { SERVICE_VERSION } from '../../core/receipt.js';
import { inlineLimitBytes } from '../speed/placement.js';
import type { VerifierPool } from '../speed/pool.js';
import { gateLogsExample } from '../harness-logs/example.js';
import { MAX_LOG_BYTES } from '../harness-logs/upload.js';
import { TOOLS } from '../registry.js';
import { GATE_LOGS_PATH } from './gate-logs.js';
import { BATCH_PATH, NDJSON } from './batch.js';
import { MAX_BATCH_LINES } from '../batch/lines.js';
import type { UsageCounters } from '../repositories/usage-counters.js';

export interface InfoRouteDeps {
  pool: VerifierPool;
  usage: UsageCounters;
  startedAt: number;
  cache: 'redis' | 'memory';
  graphKernel: 'native' | 'ts';
  inlineMaxBytes: number;
  /** VERIFY_MODE, and in queue mode the queue's depth and live workers. */
  verifyHealth?: () => Promise<object>;
  /** More health members (report-card readiness, open-bench ledger). */
  health?: () => Record<string, unknown>;
}

/** Tools that take file uploads (multipart), listed apart from the JSON tools. */
export const UPLOAD_TOOLS = [
  {
    id: 'gate-logs',
    operationId: 'gateLogs',
    name: 'Promotion gate on harness logs',
    method: 'POST',
    endpoint: GATE_LOGS_PATH,
    content_type: 'multipart/form-data',
    promise:
      'PASS, HOLD or BLOCK from two evaluation-harness logs (Inspect AI, lm-evaluation-harness, promptfoo, OpenAI evals, HELM, DeepEval), repeated runs included',
    max_file_bytes: MAX_LOG_BYTES,
  },
];

/** The batch endpoint: any catalog tool, many requests per call. */
export const BATCH_ENTRY = {
  operationId: 'batch',
  method: 'POST',
  endpoint: BATCH_PATH,
  content_type: NDJSON,
  line: '{"id": "...", "tool": "<catalog id>", "request": {...}}',
  answer_line: '{"id", "status", "receipt"} or {"id", "status", "problem"}, in input order',
  max_lines: MAX_BATCH_LINES,
};

export function catalog(inlineMaxBytes: number): {
  service_version: string;
  tools: object[];
  upload_tools: object[];
  batch: object;
} {
  return {
    service_version: SERVICE_VERSION,
    tools: TOOLS.map((t) => ({
      id: t.id,
      operationId: t.operationId,
      name: t.name,
      method: t.method,
      endpoint: t.path,
      promise: t.promise,
      // Bodies up to this size run on the event loop, larger ones in the verifier pool.
      inline_max_bytes: inlineLimitBytes(t, inlineMaxBytes),
    })),
    upload_tools: UPLOAD_TOOLS,
    batch: BATCH_ENTRY,
  };
}

export function examples(): { examples: Record<string, unknown> } {
  return {
    examples: { ...Object.fromEntries(TOOLS.map((t) => [t.id, t.example])), 'gate-logs': gateLogsExample },
  };
}

export function registerInfoRoutes(app: FastifyInstance, deps: InfoRouteDeps): void {
  const catalogBody = JSON.stringify(catalog(deps.inlineMaxBytes));
  const examplesBody = JSON.stringify(examples());
  app.get('/api/catalog', (_req, reply) => reply.type('application/json; charset=utf-8').send(catalogBody));
  app.get('/api/examples', (_req, reply) => reply.type('application/json; charset=utf-8').send(examplesBody));
  app.get('/api/health', async () => ({
    status: 'ok',
    service: 'eval-tools',
    version: SERVICE_VERSION,
    uptime_seconds: Math.round((Date.now() - deps.startedAt) / 1000),
    runtime: { name: 'node', version: process.versions.node },
    tools: TOOLS.length,
    pool: deps.pool.stats(),
    shared_state: deps.cache,
    graph_kernel: deps.graphKernel,
    verify: (await deps.verifyHealth?.()) ?? { mode: 'local' },
    ...deps.health?.(),
  }));
  app.get('/api/stats', async () => ({ service_version: SERVICE_VERSION, ...(await deps.usage.snapshot()) }));
}
