/**
 * Graceful shutdown with close-with-grace (fastify's recommendation): on SIGTERM/SIGINT (and
 * the other terminating signals), and on an uncaught exception or unhandled rejection, stop
 * accepting, let in-flight requests finish (fastify's close waits for them), then close pools
 * and connections. A signal exits 0 once closed; a crash exits 1 once closed; a second signal
 * or error exits 1 at once; a hard deadline exits 1 if something hangs, so an orchestrator
 * never waits forever.
 */
import closeWithGrace from 'close-with-grace';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

export interface ShutdownOptions {
  app?: FastifyInstance;
  closers: (() => Promise<void>)[];
  logger: FastifyBaseLogger;
  timeoutMs: number;
}

/** Installs the handlers; the returned function removes them (tests, embedding). */
export function installGracefulShutdown(options: ShutdownOptions): () => void {
  const { logger } = options;
  const handle = closeWithGrace(
    {
      delay: options.timeoutMs,
      logger: false,
      onTimeout: (timeoutMs) => logger.error({ timeoutMs }, 'shutdown timed out; exiting'),
      onSecondSignal: (signal) => logger.error({ signal }, 'second signal during shutdown; exiting now'),
      onSecondError: (err) => logger.error({ err }, 'another error during shutdown; exiting now'),
    },
    async ({ signal, err }) => {
      if (err) logger.fatal({ err }, 'uncaught error; shutting down');
      else logger.info({ signal }, 'shutting down');
      try {
        if (options.app) await options.app.close();
        for (const close of options.closers) await close();
        logger.info('shut down cleanly');
      } catch (closeErr) {
        logger.error({ err: closeErr }, 'error during shutdown');
        throw closeErr;
      }
    },
  );
  return handle.uninstall;
}
