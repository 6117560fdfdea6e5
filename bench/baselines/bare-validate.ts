/**
 * Baseline server for the gate benchmark: a bare fastify route that only parses the JSON
 * body and validates it against the same gate schema, then answers a tiny body.
 */
import Fastify from 'fastify';
import { compileValidator } from '../../src/core/validation.js';
import { GateRequest } from '../../src/eval/tools/gate/schema.js';

const validate = compileValidator(GateRequest);
const app = Fastify({ logger: false, bodyLimit: 16 * 1024 * 1024 });
app.get('/health', () => ({ ok: true }));
app.post('/bare', (request) => {
  validate.assert(request.body);
  return { ok: true };
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
