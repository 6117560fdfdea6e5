/**
 * The live updates of one API process: the Redis event stream (publisher and feed) and the hub
 * of this instance's websockets, built from the configuration. The app decorates itself with
 * the hub (`app.liveHub`) so tests and the benchmark can watch its connections.
 */
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../core/errors.js';
import type { MusicConfig } from './config.js';
import type { MusicConnections } from './repositories/connections.js';
import { RedisEventStream } from './repositories/event-stream-repository.js';
import type { AuthService } from './services/auth-service.js';
import { LiveHub, type LiveIdentity } from './services/live-hub.js';

declare module 'fastify' {
  interface FastifyInstance {
    liveHub: LiveHub;
  }
}

/** A refused token is undefined; anything else (Redis away) propagates: the hub cannot tell. */
export function liveIdentity(auth: AuthService): LiveIdentity {
  return {
    userOf: (token) =>
      auth.authenticateToken(token).then(
        (a) => a.userId,
        (err: unknown) => {
          if (err instanceof AppError && err.code === 'unauthorized') return undefined;
          throw err;
        },
      ),
  };
}

export function createLiveEvents(
  config: MusicConfig,
  connections: MusicConnections,
  auth: AuthService,
  log: FastifyBaseLogger,
): { events: RedisEventStream; hub: LiveHub } {
  const { resumeWindow, maxConnectionsPerUser, heartbeatSeconds, maxBufferedBytes } = config.liveEvents;
  const events = new RedisEventStream(connections.redis, config.cacheUrl, {
    prefix: config.cacheKeyPrefix,
    window: resumeWindow,
  });
  const hub = new LiveHub(
    events,
    liveIdentity(auth),
    {
      maxConnectionsPerUser,
      maxBufferedBytes,
      heartbeatMs: heartbeatSeconds * 1000,
      maxHeldEvents: resumeWindow * 2,
      helloTimeoutMs: 10_000,
      closeGraceMs: 5_000,
      resumeWindow,
    },
    (err) => log.warn({ err: err.message }, 'live event feed: Redis not reachable'),
  );
  return { events, hub };
}
