/** The open-bench log's read routes, one per descriptor in open-bench/log/endpoints.ts. */
import type { FastifyInstance } from 'fastify';
import { compileValidator, createQueryAjv } from '../../core/validation.js';
import { LOG_ENDPOINTS } from '../open-bench/log/endpoints.js';
import type { LogService } from '../open-bench/log/log-service.js';

// Query strings are text: "2" is the integer 2 here, "2.5" and "-1" are refused with a message.
const queryAjv = createQueryAjv();

export function registerOpenBenchLogRoutes(app: FastifyInstance, service: LogService): void {
  for (const e of LOG_ENDPOINTS) {
    const valid = compileValidator(e.query, { ajv: queryAjv, queryText: true });
    app.get(e.path, { config: { problemHint: `GET ${e.path}?${e.example}` } }, (request) =>
      e.run(service, valid.assert({ ...(request.query as object) }, 'query string')),
    );
  }
}
