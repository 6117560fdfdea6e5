/**
 * /api/v1/payments: prices, checkout, purchases, the buyer's library, the artist's sales,
 * download links and the provider's webhook (raw body, its own body limit, no session).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Static } from 'typebox';
import { takeAnyTypeAsBytes } from '../../core/json-bodies.js';
import { caller, type AuthHooks } from '../auth-hook.js';
import type { AuthContext } from '../auth-context.js';
import {
  CheckoutBody,
  DownloadParams,
  DownloadQuery,
  PaymentTrackParams,
  PriceBody,
  PurchaseParams,
} from '../schemas/payments.js';
import { PageQuery } from '../schemas/users.js';
import type { PaymentDownloads } from '../services/payment-downloads.js';
import type { PaymentService } from '../services/payment-service.js';
import type { PaymentWebhooks } from '../services/payment-webhooks.js';

/** Provider events are a few KB; the largest (expanded objects) stay well under this. */
export const WEBHOOK_BODY_LIMIT = 256 * 1024;

export interface PaymentRouteDeps {
  payments: PaymentService;
  downloads: PaymentDownloads;
  webhooks: PaymentWebhooks;
  roleOf: (userId: string) => Promise<AuthContext['role'] | undefined>;
}

type Id = { Params: Static<typeof PaymentTrackParams> };
const PRIVATE = 'private, no-store';

export function registerPaymentRoutes(app: FastifyInstance, deps: PaymentRouteDeps, hooks: AuthHooks): void {
  const auth = { onRequest: hooks.requireAuth };
  const { payments, downloads } = deps;

  // Whether payments are on: the player asks before drawing a control that would only fail.
  app.get('/api/v1/payments', () => payments.status());
  app.get<Id>(
    '/api/v1/payments/tracks/:id',
    { onRequest: hooks.optionalAuth, schema: { params: PaymentTrackParams } },
    async (request, reply) =>
      reply.header('cache-control', PRIVATE).send(await payments.price(request.auth, request.params.id)),
  );
  app.put<Id & { Body: Static<typeof PriceBody> }>(
    '/api/v1/payments/tracks/:id',
    { ...auth, schema: { params: PaymentTrackParams, body: PriceBody } },
    async (request) => payments.setPrice(caller(request), request.params.id, request.body),
  );
  app.post<{ Body: Static<typeof CheckoutBody> }>(
    '/api/v1/payments/checkout',
    { ...auth, schema: { body: CheckoutBody } },
    async (request, reply) => reply.code(201).send(await payments.checkout(caller(request), request.body)),
  );
  app.get<{ Params: Static<typeof PurchaseParams> }>(
    '/api/v1/payments/purchases/:id',
    { ...auth, schema: { params: PurchaseParams } },
    async (request, reply) =>
      reply
        .header('cache-control', PRIVATE)
        .send(await payments.purchase(caller(request), request.params.id)),
  );
  app.get('/api/v1/payments/library', auth, async (request, reply) =>
    reply.header('cache-control', PRIVATE).send(await payments.library(caller(request))),
  );
  app.get<{ Querystring: Static<typeof PageQuery> }>(
    '/api/v1/payments/sales',
    { ...auth, schema: { querystring: PageQuery } },
    async (request, reply) =>
      reply.header('cache-control', PRIVATE).send(await payments.sales(caller(request), request.query)),
  );
  app.get<Id>(
    '/api/v1/payments/tracks/:id/download',
    { ...auth, schema: { params: PaymentTrackParams } },
    async (request, reply) =>
      reply.header('cache-control', PRIVATE).send(await downloads.link(caller(request), request.params.id)),
  );
  // The link itself is the credential (a plain <a href> in the player), checked again on use.
  app.get<{ Params: Static<typeof DownloadParams>; Querystring: Static<typeof DownloadQuery> }>(
    '/api/v1/payments/download/:track_id',
    { schema: { params: DownloadParams, querystring: DownloadQuery }, compress: false },
    async (request, reply) => {
      const answer = await downloads.download(request.params.track_id, request.query, deps.roleOf);
      return reply.headers(answer.headers).send(answer.body);
    },
  );
  void app.register((scope, _opts, done) => {
    takeAnyTypeAsBytes(scope, WEBHOOK_BODY_LIMIT);
    const signatureOf = (request: FastifyRequest): string | undefined => {
      const signature = request.headers['stripe-signature'];
      return typeof signature === 'string' ? signature : undefined;
    };
    // Refused before the body is read: a flood of large unsigned bodies costs no reading or HMAC.
    const onRequest = (request: FastifyRequest, _reply: unknown, done: (err?: Error) => void): void => {
      try {
        deps.webhooks.checkHeader(signatureOf(request));
        done();
      } catch (err) {
        done(err as Error);
      }
    };
    scope.post('/api/v1/payments/webhook', { bodyLimit: WEBHOOK_BODY_LIMIT, onRequest }, async (request) => {
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      return deps.webhooks.receive(body, signatureOf(request));
    });
    done();
  });
}
