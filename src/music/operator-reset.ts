/**
 * The operator's password reset (`cli admin reset-password HANDLE`), with the consequences of a
 * reset by mail: every session and Subsonic client key ended, the owner told (when mail is on).
 */
import { RedisLoginFailureRepository } from './repositories/login-failure-repository.js';
import type { MusicConfig } from './config.js';
import type { MusicConnections } from './repositories/connections.js';
import { PrismaAccountRepository } from './repositories/account-repository.js';
import { BullMailOutbox } from './repositories/mail-outbox.js';
import { PrismaSessionRepository } from './repositories/session-repository.js';
import { RedisTokenRevocationRepository } from './repositories/token-revocation-repository.js';
import { PrismaUserRepository } from './repositories/user-repository.js';
import { ClientKeyRepository } from './repositories/client-key-repository.js';
import { PasswordResetService, type PasswordSetResult } from './services/password-reset-service.js';
import { SessionService } from './services/session-service.js';

export async function resetPasswordAsOperator(
  config: MusicConfig,
  connections: MusicConnections,
  handle: string,
  password: string,
): Promise<PasswordSetResult | undefined> {
  const outbox = new BullMailOutbox(connections.redis, { prefix: config.queuePrefix }, config.mail.publicUrl);
  const sessions = new SessionService(
    new PrismaSessionRepository(connections.prisma),
    new RedisTokenRevocationRepository(connections.redis, config.cacheKeyPrefix),
    config.ipHashSalt,
    config.jwt.expiresInSeconds,
  );
  const clientKeys = new ClientKeyRepository(connections.prisma);
  const loginFailures = new RedisLoginFailureRepository(connections.redis, config.cacheKeyPrefix);
  const reset = new PasswordResetService({
    users: new PrismaUserRepository(connections.prisma),
    accounts: new PrismaAccountRepository(connections.prisma),
    mail: config.smtp ? { outbox, publicUrl: config.mail.publicUrl } : undefined,
    endSessions: (userId) => sessions.endAll(userId),
    // API processes forget cached keys within seconds (CLIENT_KEY_CACHE_MS).
    revokeClientKeys: (userId) => clientKeys.deleteAllOfUser(userId),
    clearLoginFailures: (userId) => loginFailures.clear(userId),
    reportFailure: () => undefined,
  });
  try {
    return await reset.setByOperator(handle, password);
  } finally {
    await outbox.close();
  }
}
