/**
 * One POST route per registered tool. The body arrives as raw bytes (no JSON parse on the
 * event loop); the registry decides whether it runs inline or in the verifier pool.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendProblem } from '../../core/error-handler.js';
import { EXAMPLES_HINT, executeTool, type ToolOutcome, type ToolTimings } from '../execute.js';
import type { VerifierPool } from '../pool.js';
import { TOOLS } from '../registry.js';
import type { StatsStore } from '../stats.js';

export interface ToolRouteDeps {
  pool: VerifierPool;
  stats: StatsStore;
  bodyLimit: number;
}

export function registerToolRoutes(app: FastifyInstance, deps: ToolRouteDeps): void {
  // Encapsulated: the raw-bytes JSON parser applies to tool routes only.
  void app.register((scope, _opts, done) => {
    scope.removeAllContentTypeParsers();
    const raw = { parseAs: 'buffer' as const, bodyLimit: deps.bodyLimit };
    scope.addContentTypeParser('application/json', raw, (_request, body, parsed) => parsed(null, body));
    scope.addContentTypeParser(/^application\/[a-z0-9.-]+\+json$/, raw, (_request, body, parsed) =>
      parsed(null, body),
    );
    // Counted on the response so every answer counts, including 413, 415 and 429 answered
    // before the handler ran.
    scope.addHook('onResponse', (request, reply, hookDone) => {
      const toolId = request.routeOptions.config.toolId;
      if (toolId) deps.stats.record(toolId, reply.statusCode, verdicts.get(request));
      hookDone();
    });
    for (const tool of TOOLS) {
      scope.post(
        tool.path,
        {
          bodyLimit: deps.bodyLimit,
          config: { toolId: tool.id, problemHint: `${EXAMPLES_HINT} (examples.${tool.id}).` },
        },
        async (request, reply) => {
          const bytes = (request.body as Buffer | undefined) ?? Buffer.alloc(0);
          const started = performance.now();
          const outcome: ToolOutcome =
            tool.placement === 'pool' ? await deps.pool.run(tool.id, bytes) : executeTool(tool.id, bytes);
          if (outcome.ok && outcome.verdict) verdicts.set(request, outcome.verdict);
          if (outcome.ok)
            void reply.header('server-timing', serverTiming(performance.now() - started, outcome.timings));
          return sendOutcome(reply, outcome);
        },
      );
    }
    done();
  });
}

/** queue: everything outside the four phases (waiting for a pool thread, crossing to it and back). */
export function serverTiming(totalMs: number, t: ToolTimings): string {
  const queue = Math.max(0, totalMs - t.parse - t.validate - t.run - t.seal);
  const f = (ms: number): string => ms.toFixed(2);
  return `queue;dur=${f(queue)}, parse;dur=${f(t.parse)}, validate;dur=${f(t.validate)}, run;dur=${f(t.run)}, seal;dur=${f(t.seal)}`;
}

const verdicts = new WeakMap<FastifyRequest, string>();

function sendOutcome(reply: FastifyReply, outcome: ToolOutcome): FastifyReply {
  if (!outcome.ok) return sendProblem(reply, outcome.problem);
  void reply.header('x-receipt-status', outcome.status);
  // Encoded here, once: fastify would otherwise measure the string and encode it again.
  const payload = Buffer.from(outcome.body, 'utf8');
  return reply.code(200).type('application/json; charset=utf-8').send(payload);
}
