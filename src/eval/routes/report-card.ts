/** Report-card routes and the published signing keys. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { compileValidator } from '../../core/validation.js';
import type { ReportCardService } from '../report-card/report-card-service.js';
import { ReportCardSubmitRequest, StartRequest } from '../report-card/schemas.js';

const HINT =
  'POST /api/report-card/start {} returns a session; submit {session_id, answers: {"item-1": "<predicate>"}}.';
const validStart = compileValidator(StartRequest);
const validSubmit = compileValidator(ReportCardSubmitRequest);

export function registerReportCardRoutes(
  app: FastifyInstance,
  service: ReportCardService,
  clientAddress: (request: FastifyRequest) => string,
): void {
  const options = { bodyLimit: 64 * 1024, config: { problemHint: HINT } };
  app.post('/api/report-card/start', options, (request) =>
    service.start(validStart.assert(request.body ?? {}), clientAddress(request)),
  );
  app.post('/api/report-card/submit', options, (request) => service.submit(validSubmit.assert(request.body)));
  app.get('/.well-known/receipt-keys.json', () => service.keySet());
}
