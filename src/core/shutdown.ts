/**
 * Graceful shutdown on SIGTERM/SIGINT: stop accepting, let in-flight requests finish
 * (fastify's close waits for them), then close pools and connections, and exit 0. A hard
 * deadline exits 1 if something hangs, so an orchestrator never waits forever.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';

export interface ShutdownOptions {
  app?: FastifyInstance;
  closers: (() => Promise<void>)[];
  logger: FastifyBaseLogger;
  timeoutMs: number;
  signals?: NodeJS.Signals[];
}

export function installGracefulShutdown(options: ShutdownOptions): () => Promise<void> {
  let closing: Promise<void> | undefined;
  const shutdown = (): Promise<void> => {
    closing ??= (async () => {
      const timer = setTimeout(() => {
        options.logger.error({ timeoutMs: options.timeoutMs }, 'shutdown timed out; exiting');
        process.exit(1);
      }, options.timeoutMs);
      timer.unref();
      try {
        if (options.app) await options.app.close();
        for (const close of options.closers) await close();
        options.logger.info('shut down cleanly');
      } catch (err) {
        options.logger.error({ err }, 'error during shutdown');
        process.exitCode = 1;
      } finally {
        clearTimeout(timer);
      }
    })();
    return closing;
  };
  for (const signal of options.signals ?? (['SIGTERM', 'SIGINT'] as NodeJS.Signals[])) {
    process.once(signal, () => {
      options.logger.info({ signal }, 'shutting down');
      void shutdown().then(() => process.exit(process.exitCode ?? 0));
    });
  }
  return shutdown;
}
