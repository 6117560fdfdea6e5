/**
 * Accounts that look after themselves (docs/accounts.md), wired into the music-api app:
 * verification, password reset, sessions, the mail outbox, the publishing gate and the admin's
 * view of failed mail. Returns what the sign-up and login routes tell, and the verification
 * service (payments call `verification.assertVerified(caller, 'buying')`).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthHooks } from './auth-hook.js';
import type { MusicConfig } from './config.js';
import type { MusicConnections } from './repositories/connections.js';
import { PrismaAccountRepository } from './repositories/account-repository.js';
import { BullMailOutbox, type MailRetryOptions } from './repositories/mail-outbox.js';
import { PrismaSessionRepository } from './repositories/session-repository.js';
import type { TokenRevocationRepository } from './repositories/token-revocation-repository.js';
import type { UserRepository } from './repositories/user-repository.js';
import { registerAccountRoutes } from './routes/accounts.js';
import { registerAdminMailRoutes } from './routes/admin-mail.js';
import type { SignInObserver } from './routes/auth.js';
import { registerSessionRoutes } from './routes/sessions.js';
import { PasswordResetService } from './services/password-reset-service.js';
import { SessionService, type ClientInfo } from './services/session-service.js';
import type { TokenService } from './services/tokens.js';
import { VerificationService, type AccountMail } from './services/verification-service.js';
import { MailLimits } from './services/mail-limits.js';
import type { RateLimitStore } from '../core/rate-limit/store.js';

export interface AccountsWiring {
  config: MusicConfig;
  connections: MusicConnections;
  users: UserRepository;
  revocations: TokenRevocationRepository;
  tokens: TokenService;
  hooks: AuthHooks;
  revokeClientKeys: (userId: string) => Promise<number>;
  clientAddress: (request: FastifyRequest) => string;
  /** The shared limiter store (Redis, with the local fallback): the mail limits' buckets. */
  limiter: RateLimitStore;
  /** Ends an account's wait after failed logins (a reset by mail proves the owner). */
  clearLoginFailures: (userId: string) => Promise<void>;
  nowMs: () => number;
  /** Tests shorten the mail retries' backoff. */
  mailRetry?: MailRetryOptions;
}

const PUBLISHING = 'publishing a track publicly';

/** Routes where a track becomes public: its creation (public by default) or a change to public. */
function publishes(request: FastifyRequest): boolean {
  const body = request.body as { visibility?: unknown } | null | undefined;
  const url = request.routeOptions.url;
  if (request.method === 'POST' && url === '/api/v1/tracks')
    return (body?.visibility ?? 'public') === 'public';
  return request.method === 'PATCH' && url === '/api/v1/tracks/:id' && body?.visibility === 'public';
}

const ENDS_SESSION = new Set(['/api/v1/auth/logout', '/api/v1/me/sessions', '/api/v1/me/sessions/:id']);

/** The sign-in observer for the auth routes, and the verification check other features call (buying). */
export type Accounts = SignInObserver & { verification: VerificationService };

export function registerAccounts(app: FastifyInstance, w: AccountsWiring): Accounts {
  const { config, connections } = w;
  const outbox = new BullMailOutbox(
    connections.redis,
    { prefix: config.queuePrefix },
    config.mail.publicUrl,
    w.mailRetry,
  );
  app.addHook('onClose', () => outbox.close());
  const mail: AccountMail | undefined = config.smtp
    ? { outbox, publicUrl: config.mail.publicUrl }
    : undefined;
  const accounts = new PrismaAccountRepository(connections.prisma);
  const sessions = new SessionService(
    new PrismaSessionRepository(connections.prisma),
    w.revocations,
    config.ipHashSalt,
    w.tokens.lifetime,
    w.nowMs,
  );
  const verification = new VerificationService(w.users, accounts, mail, new MailLimits(w.limiter), w.nowMs);
  const reset = new PasswordResetService({
    users: w.users,
    accounts,
    mail,
    endSessions: (userId) => sessions.endAll(userId),
    revokeClientKeys: w.revokeClientKeys,
    clearLoginFailures: w.clearLoginFailures,
    reportFailure: (err) => app.log.error({ err: (err as Error).message }, 'password reset mail not sent'),
    nowMs: w.nowMs,
  });
  app.addHook('onClose', () => reset.settled());
  const client = (request: FastifyRequest): ClientInfo => ({
    userAgent: request.headers['user-agent'],
    address: w.clientAddress(request),
  });

  // Publishing publicly waits for a verified address (when mail is on); listening and uploading do not.
  app.addHook('preHandler', async (request) => {
    if (request.auth && publishes(request)) await verification.assertVerified(request.auth, PUBLISHING);
  });
  // "Last seen" of the session that made a successful request (not one it just ended).
  app.addHook('onResponse', async (request, reply) => {
    const url = request.routeOptions.url ?? '';
    if (!request.auth || reply.statusCode >= 400 || ENDS_SESSION.has(url)) return;
    await sessions.seen(request.auth, client(request)).catch((err: unknown) => {
      request.log.warn({ err: (err as Error).message }, 'session last-seen not recorded');
    });
  });

  registerAccountRoutes(app, reset, verification, w.hooks);
  registerSessionRoutes(app, sessions, w.hooks);
  registerAdminMailRoutes(app, outbox, w.hooks);

  return {
    signedIn: async (request, answer, signup) => {
      const verified = await w.tokens.verify(answer.token);
      if (verified.ok) await sessions.started(verified.claims, client(request));
      // The account exists whatever happens to its mail: a failed send is logged, resend is possible.
      if (signup)
        await verification.signedUp(answer.user.id).catch((err: unknown) => {
          request.log.warn({ err: (err as Error).message }, 'verification mail not enqueued');
        });
    },
    loggedOut: (request) => sessions.loggedOut(request.auth),
    verification,
  };
}
