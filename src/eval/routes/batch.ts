/**
 * `POST /api/batch`: NDJSON in, NDJSON out, streamed. Each line runs exactly as its tool's own
 * endpoint runs it (run-tool.ts) and is counted in that tool's stats; a bad line is a problem
 * line, never a failed batch. Rate-limited by lines, in the same bucket as single calls.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BatchStream } from '../batch/stream.js';
import { BATCH_HINT } from '../batch/answer.js';
import { lineAdmission, type BatchLimiter } from '../batch/admission.js';
import type { ChunkResult, ChunkTask } from '../batch/chunk.js';
import { batchDispatcher, CHUNK_MAX_LINES } from '../batch/dispatch.js';
import { splitLines } from '../batch/lines.js';
import type { VerifierPool } from '../speed/pool.js';
import type { UsageCounters } from '../repositories/usage-counters.js';
import type { RunTool, RunsInline } from '../speed/run-tool.js';
import { batchEmpty, batchNotNdjson } from '../errors.js';

export const BATCH_PATH = '/api/batch';
export const NDJSON = 'application/x-ndjson';

export interface BatchRouteDeps {
  runTool: RunTool;
  runsInline: RunsInline;
  /** Chunks of small lines run on its threads (`runTask`, local in every VERIFY_MODE). */
  pool: VerifierPool;
  usage: UsageCounters;
  bodyLimit: number;
  lineLimit: number;
  /** Units (a line, or a chunk of small lines) of one batch in flight at once. */
  concurrency: number;
  /** Chunks of small lines go to the pool threads, not the event loop. */
  poolChunks: boolean;
  /** Absent when rate limits are off. */
  limiter?: BatchLimiter;
}

export function registerBatchRoute(app: FastifyInstance, deps: BatchRouteDeps): void {
  const dispatchDeps = {
    ...deps,
    poolSize: deps.pool.size,
    runChunk: (task: ChunkTask) => deps.pool.runTask<ChunkTask, ChunkResult>('batch-chunk', task),
  };
  void app.register((scope, _opts, done) => {
    // Only NDJSON: any other declared type is a 415 naming this one.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_r, _payload, next) => next(batchNotNdjson(NDJSON)));
    scope.addContentTypeParser(NDJSON, { parseAs: 'buffer', bodyLimit: deps.bodyLimit }, (_r, body, next) =>
      next(null, body),
    );
    scope.post(
      BATCH_PATH,
      { bodyLimit: deps.bodyLimit, compress: false, config: { problemHint: BATCH_HINT } },
      async (request, reply) => {
        const lines = splitLines((request.body as Buffer | undefined) ?? Buffer.alloc(0));
        if (lines.length === 0) throw batchEmpty();
        const admit = deps.limiter ? lineAdmission(deps.limiter, request) : undefined;
        const credit = admit ? await firstLine(admit, request) : undefined;
        const stream = new BatchStream({
          count: lines.length,
          concurrency: deps.concurrency,
          dispatch: batchDispatcher(lines, dispatchDeps, request.log),
          admitAtOnce: CHUNK_MAX_LINES,
          ...(admit ? { admit, credit } : {}),
        });
        return reply
          .header('x-batch-lines', String(lines.length))
          .header('cache-control', 'no-store')
          .type(`${NDJSON}; charset=utf-8`)
          .send(stream);
      },
    );
    done();
  });
}

/** The first line is admitted before answering, so a client already over its limit gets a 429. */
async function firstLine(admit: ReturnType<typeof lineAdmission>, request: FastifyRequest): Promise<number> {
  const granted = await admit.now(1);
  if (granted.allowed) return granted.lines;
  request.log.debug({ retry_after_ms: granted.retryAfterMs }, 'batch rate limited');
  throw admit.limited(granted.retryAfterMs);
}
