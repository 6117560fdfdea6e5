/**
 * Password reset (POST /api/v1/auth/password-reset, .../confirm), email verification
 * (POST /api/v1/auth/verification to resend, .../confirm; GET /api/v1/me/verification) and the
 * address change (POST /api/v1/auth/email). Under /api/v1/auth/: the auth rate-limit scope.
 */
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { caller, type AuthHooks } from '../auth-hook.js';
import {
  EmailChangeBody,
  PasswordResetBody,
  PasswordResetConfirmBody,
  VerificationConfirmBody,
} from '../schemas/accounts.js';
import type { PasswordResetService } from '../services/password-reset-service.js';
import type { VerificationService } from '../services/verification-service.js';
import { clearSessionCookie } from '../session-cookie.js';
import { assertNoBodyFields } from '../validation.js';
import { refuseForeignOrigin } from './auth.js';

export function registerAccountRoutes(
  app: FastifyInstance,
  reset: PasswordResetService,
  verification: VerificationService,
  hooks: AuthHooks,
): void {
  const noStore = { 'cache-control': 'no-store' };
  app.post<{ Body: Static<typeof PasswordResetBody> }>(
    '/api/v1/auth/password-reset',
    { schema: { body: PasswordResetBody }, onRequest: refuseForeignOrigin },
    async (request, reply) =>
      reply
        .code(202)
        .headers(noStore)
        .send(await reset.request(request.body)),
  );

  app.post<{ Body: Static<typeof PasswordResetConfirmBody> }>(
    '/api/v1/auth/password-reset/confirm',
    { schema: { body: PasswordResetConfirmBody }, onRequest: refuseForeignOrigin },
    async (request, reply) => {
      const answer = await reset.confirm(request.body);
      // Every session ended, this browser's too: it logs in with the new password.
      clearSessionCookie(reply);
      return reply.headers(noStore).send({ message: 'The password is set; log in with it.', ...answer });
    },
  );

  app.get('/api/v1/me/verification', { onRequest: hooks.requireAuth }, async (request, reply) =>
    reply.headers(noStore).send(await verification.status(caller(request))),
  );

  app.post('/api/v1/auth/verification', { onRequest: hooks.requireAuth }, async (request, reply) => {
    assertNoBodyFields(request.body);
    return reply
      .code(202)
      .headers(noStore)
      .send(await verification.resend(caller(request)));
  });

  app.post<{ Body: Static<typeof VerificationConfirmBody> }>(
    '/api/v1/auth/verification/confirm',
    { schema: { body: VerificationConfirmBody }, onRequest: refuseForeignOrigin },
    async (request, reply) => reply.headers(noStore).send(await verification.confirm(request.body.token)),
  );

  app.post<{ Body: Static<typeof EmailChangeBody> }>(
    '/api/v1/auth/email',
    { schema: { body: EmailChangeBody }, onRequest: hooks.requireAuth },
    async (request, reply) => {
      const answer = await verification.requestChange(caller(request), request.body);
      return reply
        .code(answer.pending_email === undefined ? 200 : 202)
        .headers(noStore)
        .send(answer);
    },
  );
}
