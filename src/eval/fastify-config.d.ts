import 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Catalog id of the tool a route serves (stats, metrics). */
    toolId?: string;
    /** Added as `hint` to this route's 4xx problems. */
    problemHint?: string;
    rateLimit?: boolean;
  }
}
