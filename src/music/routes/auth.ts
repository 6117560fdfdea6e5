/** POST /api/v1/auth/signup, /login, /logout. */
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { caller, type AuthHooks } from '../auth-hook.js';
import { LoginBody, SignupBody } from '../schemas/auth.js';
import type { AuthService } from '../services/auth-service.js';
import { assertNoBodyFields } from '../validation.js';

export function registerAuthRoutes(app: FastifyInstance, auth: AuthService, hooks: AuthHooks): void {
  app.post<{ Body: Static<typeof SignupBody> }>(
    '/api/v1/auth/signup',
    { schema: { body: SignupBody } },
    async (request, reply) =>
      reply
        .code(201)
        .header('cache-control', 'no-store')
        .send(await auth.signup(request.body)),
  );

  app.post<{ Body: Static<typeof LoginBody> }>(
    '/api/v1/auth/login',
    { schema: { body: LoginBody } },
    async (request, reply) => reply.header('cache-control', 'no-store').send(await auth.login(request.body)),
  );

  app.post('/api/v1/auth/logout', { onRequest: hooks.requireAuth }, async (request, reply) => {
    assertNoBodyFields(request.body);
    await auth.logout(caller(request));
    return reply.code(204).send();
  });
}
