/** `/llms.txt`: a short plain-text guide for agents to the endpoints and examples. */
import type { FastifyInstance } from 'fastify';
import { SERVICE_VERSION } from '../../core/receipt.js';
import { TOOLS } from '../registry.js';

export function llmsTxt(): string {
  const tools = TOOLS.map((t) => `- ${t.method} ${t.path} (${t.id}): ${t.promise}`).join('\n');
  return `# Evaluation tools service ${SERVICE_VERSION}

> Verifier-grounded evaluation tools for AI systems. Every tool call returns a deterministic
> receipt (canonical JSON, SHA-256 hashes, an item-level decision path). No authentication;
> payloads are not stored.

## Start here
- GET /api/examples: a complete valid request body for every tool; POST it as application/json.
- GET /api/catalog: the tools, their operationIds and endpoints.
- GET /openapi.json: OpenAPI 3.1.0 with the exact request schemas.
- POST /mcp: the same tools over MCP (Streamable HTTP, stateless, JSON responses); manifest at /.well-known/mcp.json.
- GET /llms-full.txt: this guide with every tool's example request; GET /skill.md: the same as a skill file; GET /for-agents: a page for people wiring agents.

## Tools
${tools}

## Many calls at once
- POST /api/batch (application/x-ndjson): one line per call, {"id": "...", "tool": "<catalog id>", "request": {...}}, up to 10000 lines; answers stream back as NDJSON in input order, {"id", "status", "receipt"} or {"id", "status", "problem"}, each receipt the same bytes its endpoint gives. Lines count against the rate limit.

## Other areas
- POST /api/report-card/start, POST /api/report-card/submit: a disposable, checker-graded report card; results signed with Ed25519 (keys at /.well-known/receipt-keys.json).
- POST /api/open-bench/start, POST /api/open-bench/submit: the open benchmark (scope-integrity track): six tasks on a small virtual repository, both baseline and candidate graded per task (requested state reached, nothing outside the task's scope touched), the paired verdict PASS/HOLD/BLOCK in a hash-sealed receipt; opt-in publication with publish: {display_name, attestation: true}.
- GET /api/open-bench/leaderboard?order=newest|best&page=1&per_page=20, GET /api/open-bench/receipt/{public_id}: published, sanitized receipts.
- GET /api/health, GET /api/stats.

## Errors
Bad input is a 400 application/problem+json with errors[] (JSON pointers) and a hint; 429 and 503 carry Retry-After.
`;
}

export function registerLlmsTxt(app: FastifyInstance): void {
  const body = llmsTxt();
  app.get('/llms.txt', (_req, reply) => reply.type('text/plain; charset=utf-8').send(body));
}
