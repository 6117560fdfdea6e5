/** Open-bench routes: start, submit, the public leaderboard and receipt lookup. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { invalidInput } from '../../core/errors.js';
import { compileValidator, createQueryAjv } from '../../core/validation.js';
import type { OpenBenchService } from '../open-bench/open-bench-service.js';
import { publicReceiptBytes } from '../open-bench/public-receipt.js';
import {
  LeaderboardQuery,
  OpenBenchStartRequest,
  OpenBenchSubmitRequest,
  PUBLIC_ID_PATTERN,
} from '../open-bench/schemas.js';

const HINT =
  'POST /api/open-bench/start {} returns a repository and six tasks; submit {session_id, baseline: {"task-1": {writes: {"path": "content"}, deletes: []}}, candidate: {...}}.';
const LEADERBOARD_HINT = 'GET /api/open-bench/leaderboard?order=newest|best&page=1&per_page=20';
const validStart = compileValidator(OpenBenchStartRequest);
const validSubmit = compileValidator(OpenBenchSubmitRequest);
// Query strings are text: "2" is the integer 2 here ("0x2" and "2e0" are refused).
const validQuery = compileValidator(LeaderboardQuery, {
  ajv: createQueryAjv(),
  queryText: true,
});
const publicId = new RegExp(PUBLIC_ID_PATTERN);

export function registerOpenBenchRoutes(
  app: FastifyInstance,
  service: OpenBenchService,
  clientAddress: (request: FastifyRequest) => string,
): void {
  const options = { bodyLimit: 1024 * 1024, config: { problemHint: HINT } };
  app.post('/api/open-bench/start', options, (request) =>
    service.start(validStart.assert(request.body ?? {}), clientAddress(request)),
  );
  app.post('/api/open-bench/submit', options, async (request, reply) => {
    const { text, status } = await service.submit(validSubmit.assert(request.body), clientAddress(request));
    void reply.header('x-receipt-status', status);
    return reply.type('application/json; charset=utf-8').send(Buffer.from(text, 'utf8'));
  });
  app.get('/api/open-bench/leaderboard', { config: { problemHint: LEADERBOARD_HINT } }, (request) =>
    service.leaderboard(validQuery.assert({ ...(request.query as object) }, 'query string')),
  );
  app.get<{ Params: { public_id: string } }>(
    '/api/open-bench/receipt/:public_id',
    { config: { problemHint: 'Public ids look like ob_ and 22 characters; the leaderboard lists them.' } },
    async (request, reply) => {
      const id = request.params.public_id;
      if (!publicId.test(id))
        throw invalidInput('That is not a public id (ob_ and 22 letters, digits, _ or -).', [
          { path: '/public_id', message: `must match ${PUBLIC_ID_PATTERN}` },
        ]);
      const { receipt, logIndex } = await service.receipt(id);
      // The receipt's bytes are its log entry, so where it sits in the log travels beside it.
      if (logIndex !== undefined)
        void reply
          .header('open-bench-log-leaf-index', String(logIndex))
          .header(
            'link',
            `</api/open-bench/log/proof/inclusion?leaf_index=${logIndex}>; rel="inclusion-proof"`,
          );
      return reply.type('application/json; charset=utf-8').send(publicReceiptBytes(receipt));
    },
  );
}
