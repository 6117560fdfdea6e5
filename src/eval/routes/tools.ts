/**
 * One POST route per registered tool. The body arrives as raw bytes (no JSON parse on the
 * event loop for a large one); its size and the tool's declared cost decide whether it runs
 * inline or in the verifier pool (run-tool.ts).
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { sendProblem } from '../../core/error-handler.js';
import { takeAnyTypeAsBytes } from '../../core/json-bodies.js';
import { EXAMPLES_HINT, type ToolOutcome, type ToolTimings } from '../execute.js';
import { TOOLS } from '../registry.js';
import type { RunTool } from '../speed/run-tool.js';
import type { UsageCounters } from '../repositories/usage-counters.js';

export interface ToolRouteDeps {
  /** Inline or pooled, as run-tool.ts decides. */
  runTool: RunTool;
  usage: UsageCounters;
  bodyLimit: number;
}

export function registerToolRoutes(app: FastifyInstance, deps: ToolRouteDeps): void {
  void app.register((scope, _opts, done) => {
    // Encapsulated: the raw-bytes parser (any declared type, decoded if compressed) applies
    // to tool routes only.
    takeAnyTypeAsBytes(scope, deps.bodyLimit);
    // The handler leaves the receipt's verdict on the request for the usage hook below.
    scope.decorateRequest('toolVerdict', undefined);
    // Counted on the response so every answer counts, including 413, 415 and 429 answered
    // before the handler ran.
    scope.addHook('onResponse', (request, reply, hookDone) => {
      const toolId = request.routeOptions.config.toolId;
      if (toolId) deps.usage.record(toolId, reply.statusCode, request.toolVerdict);
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
          const outcome: ToolOutcome = await deps.runTool(tool, bytes);
          if (outcome.ok && outcome.verdict) request.toolVerdict = outcome.verdict;
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

function sendOutcome(reply: FastifyReply, outcome: ToolOutcome): FastifyReply {
  if (!outcome.ok) return sendProblem(reply, outcome.problem);
  void reply.header('x-receipt-status', outcome.status);
  // Encoded here, once: fastify would otherwise measure the string and encode it again.
  const payload = Buffer.from(outcome.body, 'utf8');
  return reply.code(200).type('application/json; charset=utf-8').send(payload);
}
