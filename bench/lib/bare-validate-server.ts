/**
 * Baseline server for bench/lib/tool-kernel.ts: parses and validates a tool's request body
 * against its schema and answers a tiny body. TOOL names the tool, PORT the port.
 */
import Fastify from 'fastify';
import { compileValidator } from '../../src/core/validation.js';
import { getTool } from '../../src/eval/registry.js';

const id = process.env.TOOL ?? '';
const validate = compileValidator(getTool(id).schema);
const app = Fastify({ logger: false, bodyLimit: 16 * 1024 * 1024 });
app.post(`/bare/${id}`, (request) => {
  validate.assert(request.body);
  return { ok: true };
});
app.get('/health', () => ({ ok: true }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
