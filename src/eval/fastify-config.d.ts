import 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Catalog id of the tool a route serves (stats, metrics). */
    toolId?: string;
    /** Added as `hint` to this route's 4xx problems. */
    problemHint?: string;
    rateLimit?: boolean;
  }
  interface FastifyRequest {
    /** The receipt verdict of a tool route's answer, for the usage counters (routes/tools.ts). */
    toolVerdict?: string;
  }
}
