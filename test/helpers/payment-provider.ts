/**
 * A local stand-in for the payment provider's API (Stripe), which these machines cannot reach.
 * The official library is pointed at it (host/port/protocol); it checks what the library sends
 * and answers as the API reference documents (https://docs.stripe.com/api/checkout/sessions/create,
 * /api/refunds/create, /api/events/object, /api/charges/object, /api/disputes/object,
 * /api/idempotent_requests: a key replays its first answer, and only for the same parameters). It also plays Checkout's
 * hosted page (GET /pay/<session>) for browser tests: "Pay" delivers the signed webhook, then
 * redirects to the session's success_url. Webhook signatures come from the library's own helper.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import Stripe from 'stripe';
import {
  id,
  now,
  paidSession,
  providerEvent,
  type RefundObject,
  type SessionObject,
} from './payment-objects.js';

export {
  chargeObject,
  disputeObject,
  paidSession,
  providerEvent,
  type RefundObject,
  type SessionObject,
} from './payment-objects.js';

export const TEST_PAYMENT_SECRET_KEY = 'sk_test_payments0123456789abcdef';
export const TEST_PAYMENT_PUBLISHABLE_KEY = 'pk_test_payments0123456789abcdef';
export const TEST_PAYMENT_WEBHOOK_SECRET = 'whsec_test_payments0123456789abcdef';

export const PAYMENT_ENV = {
  PAYMENT_SECRET_KEY: TEST_PAYMENT_SECRET_KEY,
  PAYMENT_PUBLISHABLE_KEY: TEST_PAYMENT_PUBLISHABLE_KEY,
  PAYMENT_WEBHOOK_SECRET: TEST_PAYMENT_WEBHOOK_SECRET,
};

// Only its webhooks helpers are used: no request leaves with this key.
const library = new Stripe('sk_test_helper_only');

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  form: URLSearchParams;
}

/** The API's bounds on a session's expires_at, from its creation. */
const EXPIRES_MIN_SECONDS = 30 * 60;
const EXPIRES_MAX_SECONDS = 24 * 60 * 60;
const REFUND_REASONS = ['duplicate', 'fraudulent', 'requested_by_customer'];

function metadataOf(form: URLSearchParams): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [k, v] of form) {
    const m = /^metadata\[([a-z_]+)\]$/.exec(k);
    if (m?.[1]) metadata[m[1]] = v;
  }
  return metadata;
}

/** A signed delivery of `event`: the body and the Stripe-Signature header. */
export function signedDelivery(
  event: object,
  options: { secret?: string; timestamp?: number } = {},
): { payload: string; headers: Record<string, string> } {
  const payload = JSON.stringify(event, null, 2);
  const header = library.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? TEST_PAYMENT_WEBHOOK_SECRET,
    ...(options.timestamp !== undefined ? { timestamp: options.timestamp } : {}),
  });
  return { payload, headers: { 'content-type': 'application/json', 'stripe-signature': header } };
}

export class PaymentProviderStandIn {
  readonly requests: RecordedRequest[] = [];
  readonly sessions = new Map<string, SessionObject>();
  readonly refunds: RefundObject[] = [];
  /** A key's first request (method, path, parameters) and its answer. */
  private readonly byIdempotencyKey = new Map<string, { request: string; answer: object }>();
  private server: Server | undefined;
  /** Where "Pay" on the hosted page delivers the webhook (the app's base URL). */
  webhookTarget: string | undefined;
  /** Answers every API call with this status (a provider outage) when set. */
  failWith: number | undefined;

  async start(): Promise<{ host: string; port: number; protocol: 'http' }> {
    this.server = createServer((req, res) => {
      void this.handle(req, res).catch((err: unknown) => {
        res.writeHead(500).end(String(err));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    return { host: '127.0.0.1', port, protocol: 'http' };
  }

  get origin(): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  /** Delivers `event` to the app's webhook as the provider does. */
  async deliver(event: object): Promise<Response> {
    if (!this.webhookTarget) throw new Error('webhookTarget is not set');
    const { payload, headers } = signedDelivery(event);
    return fetch(`${this.webhookTarget}/api/v1/payments/webhook`, { method: 'POST', headers, body: payload });
  }

  /** Delivers `event` to an app under test without a socket (fastify inject). */
  deliverVia(app: { inject: FastifyInstance['inject'] }, event: object) {
    const { payload, headers } = signedDelivery(event);
    return app.inject({ method: 'POST', url: '/api/v1/payments/webhook', headers, payload });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? '/', 'http://stand-in');
    if (req.method === 'GET' && url.pathname.startsWith('/pay/')) return this.hostedPage(url, res);
    if (req.method === 'POST' && url.pathname.startsWith('/pay/')) return this.pay(url, res);
    const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    this.requests.push({ method: req.method ?? '', path: url.pathname, headers: req.headers, form });
    if (this.failWith !== undefined) return this.error(res, this.failWith, 'api_error', 'Stand-in outage.');
    if (req.headers.authorization !== `Bearer ${TEST_PAYMENT_SECRET_KEY}`)
      return this.error(res, 401, 'invalid_request_error', 'Invalid API Key provided.');
    if (req.method !== 'POST' || !['/v1/checkout/sessions', '/v1/refunds'].includes(url.pathname))
      return this.error(
        res,
        404,
        'invalid_request_error',
        `Unrecognized request URL (${req.method} ${url.pathname}).`,
      );
    const key = req.headers['idempotency-key'];
    const request = `POST ${url.pathname} ${[...form].sort().join('&')}`;
    const earlier = typeof key === 'string' ? this.byIdempotencyKey.get(key) : undefined;
    if (earlier && earlier.request !== request)
      return this.error(
        res,
        400,
        'idempotency_error',
        `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${String(key)}' if you meant to execute a different request.`,
      );
    if (earlier) return this.json(res, earlier.answer);
    const answer =
      url.pathname === '/v1/refunds' ? this.createRefund(form, res) : this.createSession(form, res);
    if (answer && typeof key === 'string') this.byIdempotencyKey.set(key, { request, answer });
  }

  /** The session once Checkout completed (paid, or unpaid with a delayed method), as the API keeps it. */
  complete(session: SessionObject, paymentStatus: 'paid' | 'unpaid' = 'paid'): SessionObject {
    const done = paidSession(session, paymentStatus);
    this.sessions.set(done.id, done);
    return done;
  }

  /** The session reached its expires_at unpaid: no longer payable, no URL. */
  expire(sessionId: string): SessionObject {
    const session = this.sessions.get(sessionId);
    if (!session || session.status !== 'open') throw new Error(`no open session ${sessionId}`);
    const expired: SessionObject = { ...session, status: 'expired', url: null };
    this.sessions.set(sessionId, expired);
    return expired;
  }

  private error(
    res: ServerResponse,
    status: number,
    type: string,
    message: string,
    param?: string,
    code?: string,
  ): void {
    res.writeHead(status, { 'content-type': 'application/json', 'request-id': id('req') });
    res.end(
      JSON.stringify({ error: { type, message, ...(param ? { param } : {}), ...(code ? { code } : {}) } }),
    );
  }

  /** The session (also what a replay of its idempotency key answers), or undefined after an error. */
  private createSession(form: URLSearchParams, res: ServerResponse): SessionObject | undefined {
    for (const param of [
      'mode',
      'success_url',
      'line_items[0][price_data][currency]',
      'line_items[0][price_data][unit_amount]',
    ]) {
      if (!form.get(param))
        return void this.error(res, 400, 'invalid_request_error', `Missing required param: ${param}.`, param);
    }
    const created = now();
    const expiresParam = form.get('expires_at');
    const expiresAt = expiresParam === null ? created + EXPIRES_MAX_SECONDS : Number(expiresParam);
    if (!/^\d+$/.test(expiresParam ?? '0'))
      return void this.error(res, 400, 'invalid_request_error', 'Invalid integer: expires_at.', 'expires_at');
    if (expiresAt < created + EXPIRES_MIN_SECONDS || expiresAt > created + EXPIRES_MAX_SECONDS)
      return void this.error(
        res,
        400,
        'invalid_request_error',
        'The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.',
        'expires_at',
      );
    const amount = Number(form.get('line_items[0][price_data][unit_amount]'));
    const quantity = Number(form.get('line_items[0][quantity]') ?? '1');
    const sessionId = id('cs');
    const session: SessionObject = {
      id: sessionId,
      object: 'checkout.session',
      mode: 'payment',
      status: 'open',
      payment_status: 'unpaid',
      amount_total: amount * quantity,
      currency: form.get('line_items[0][price_data][currency]') ?? '',
      client_reference_id: form.get('client_reference_id'),
      metadata: metadataOf(form),
      success_url: form.get('success_url') ?? '',
      cancel_url: form.get('cancel_url'),
      payment_intent: null,
      url: `${this.origin}/pay/${sessionId}`,
      livemode: false,
      created,
      expires_at: expiresAt,
    };
    this.sessions.set(sessionId, session);
    this.json(res, session);
    return session;
  }

  /** A refund of a paid session's payment intent (in full unless `amount`). */
  private createRefund(form: URLSearchParams, res: ServerResponse): RefundObject | undefined {
    const intent = form.get('payment_intent');
    if (!intent)
      return void this.error(
        res,
        400,
        'invalid_request_error',
        'Missing required param: payment_intent.',
        'payment_intent',
      );
    const session = [...this.sessions.values()].find((s) => s.payment_intent === intent);
    if (!session)
      return void this.error(
        res,
        404,
        'invalid_request_error',
        `No such payment_intent: '${intent}'`,
        'payment_intent',
      );
    if (session.payment_status !== 'paid')
      return void this.error(
        res,
        400,
        'invalid_request_error',
        `This PaymentIntent (${intent}) does not have a successful charge to refund.`,
      );
    const reason = form.get('reason');
    if (reason !== null && !REFUND_REASONS.includes(reason))
      return void this.error(
        res,
        400,
        'invalid_request_error',
        `Invalid reason: must be one of ${REFUND_REASONS.join(', ')}`,
        'reason',
      );
    const refunded = this.refunds
      .filter((r) => r.payment_intent === intent)
      .reduce((n, r) => n + r.amount, 0);
    if (refunded >= session.amount_total)
      return void this.error(
        res,
        400,
        'invalid_request_error',
        `Charge ch_for_${intent} has already been refunded.`,
        undefined,
        'charge_already_refunded',
      );
    const amount = form.get('amount') === null ? session.amount_total - refunded : Number(form.get('amount'));
    if (amount <= 0 || refunded + amount > session.amount_total)
      return void this.error(
        res,
        400,
        'invalid_request_error',
        `Refund amount (${amount}) is greater than unrefunded amount on charge (${session.amount_total - refunded})`,
        'amount',
      );
    const refund: RefundObject = {
      id: id('re'),
      object: 'refund',
      amount,
      currency: session.currency,
      payment_intent: intent,
      charge: `ch_for_${intent}`,
      reason,
      metadata: metadataOf(form),
      status: 'succeeded',
      created: now(),
    };
    this.refunds.push(refund);
    this.json(res, refund);
    return refund;
  }

  private json(res: ServerResponse, body: object): void {
    res.writeHead(200, { 'content-type': 'application/json', 'request-id': id('req') });
    res.end(JSON.stringify(body));
  }

  private hostedPage(url: URL, res: ServerResponse): void {
    const session = this.sessions.get(url.pathname.slice('/pay/'.length));
    if (!session) return void res.writeHead(404).end('no such session');
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><link rel="icon" href="data:,"><title>Checkout (stand-in)</title><p>Pay ${session.amount_total} ${session.currency}</p>
      <form method="post" action="/pay/${session.id}"><button id="pay">Pay</button></form>`);
  }

  /** "Pay": the signed checkout.session.completed to the app, then back to the success URL. */
  private async pay(url: URL, res: ServerResponse): Promise<void> {
    const session = this.sessions.get(url.pathname.slice('/pay/'.length));
    if (session?.status !== 'open') return void res.writeHead(404).end('no open session');
    const paid = this.complete(session);
    const answer = await this.deliver(providerEvent('checkout.session.completed', paid));
    if (answer.status !== 200) return void res.writeHead(502).end(`webhook answered ${answer.status}`);
    res.writeHead(303, { location: session.success_url }).end();
  }
}
