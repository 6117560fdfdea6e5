/**
 * Floor server for the tool benchmarks: a bare fastify route that parses the same JSON request
 * and sends a pre-built body of the receipt's size with its SHA-256, nothing else. What any
 * service answering that request with that receipt must at least spend.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const canned = readFileSync(process.env.CANNED_FILE!);
const app = Fastify({ logger: false, bodyLimit: 16 * 1024 * 1024 });
app.get('/health', () => ({ ok: true }));
app.post('/floor', (_request, reply) => {
  const sha256 = createHash('sha256').update(canned).digest('hex');
  return reply.header('x-sha256', sha256).type('application/json; charset=utf-8').send(canned);
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
