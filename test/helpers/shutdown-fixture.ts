/**
 * A process for test/shutdown.test.ts: a fastify app behind installGracefulShutdown, listening
 * on port 0. It prints `listening <port>`; `crash` in argv makes the first request trigger an
 * unhandled rejection; `hang` makes the closer never finish (to reach the deadline).
 */
import Fastify from 'fastify';
import { installGracefulShutdown } from '../../src/core/shutdown.js';

const crash = process.argv.includes('crash');
const hang = process.argv.includes('hang');
const app = Fastify({ logger: { level: 'info' } });
app.get('/crash', () => {
  if (crash) void Promise.reject(new Error('boom from a forgotten promise'));
  return { ok: true };
});
app.addHook('onClose', (_instance, done) => {
  process.stdout.write('server closed\n');
  done();
});
installGracefulShutdown({
  app,
  closers: [() => (hang ? new Promise<void>(() => undefined) : Promise.resolve())],
  logger: app.log,
  timeoutMs: Number(process.env.SHUTDOWN_TIMEOUT_MS ?? 2000),
});
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : 0}\n`);
