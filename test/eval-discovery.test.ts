/**
 * The files agents and crawlers look for: /skill.md (front matter first), /for-agents,
 * /llms-full.txt, /robots.txt, /sitemap.xml and /mcp.json beside /.well-known/mcp.json. Each is
 * checked against what the service itself answers: the catalog (/api/catalog), the OpenAPI
 * document and the MCP tool list (tools/list through the official SDK client).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { TOOLS } from '../src/eval/registry.js';
import { makeEvalApp } from './helpers/eval-app.js';

const PUBLIC_URL = 'https://eval.example.org';

interface Catalog {
  tools: { id: string; endpoint: string }[];
  upload_tools: { id: string; endpoint: string }[];
}

describe('discovery files', () => {
  let app: FastifyInstance;
  let catalog: Catalog;
  let operations: string[];
  let mcpTools: string[];

  beforeAll(async () => {
    app = await makeEvalApp({ EVAL_PUBLIC_URL: PUBLIC_URL });
    await app.listen({ port: 0, host: '127.0.0.1' });
    catalog = (await app.inject('/api/catalog')).json<Catalog>();
    const spec = (await app.inject('/openapi.json')).json<{ paths: Record<string, object> }>();
    operations = Object.keys(spec.paths);
    const client = new Client({ name: 'discovery-test', version: '1.0.0' });
    const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    mcpTools = (await client.listTools()).tools.map((t) => t.name);
    await client.close();
  });
  afterAll(async () => app?.close());

  const get = async (url: string, type: RegExp) => {
    const res = await app.inject(url);
    expect(res.statusCode, `${url}: ${res.body.slice(0, 200)}`).toBe(200);
    expect(res.headers['content-type']).toMatch(type);
    expect(res.headers['cache-control']).toBe('public, max-age=300');
    return res.body;
  };

  it('the sources are not empty (so "names every tool" means something)', () => {
    expect(catalog.tools.map((t) => t.id)).toEqual(TOOLS.map((t) => t.id));
    expect(TOOLS.length).toBeGreaterThan(0);
    expect(catalog.upload_tools.map((t) => t.id)).toContain('gate-logs');
    expect(mcpTools).toContain('open_bench_submit');
    expect(operations).toContain('/api/open-bench/leaderboard');
  });

  it.each([
    ['/skill.md', /^text\/markdown/],
    ['/for-agents', /^text\/html/],
    ['/llms-full.txt', /^text\/plain/],
  ])(
    '%s names every catalog tool with its endpoint, every MCP tool and every operation',
    async (url, type) => {
      const body = await get(url, type);
      for (const t of [...catalog.tools, ...catalog.upload_tools]) {
        expect(body, t.id).toContain(t.id);
        expect(body, t.endpoint).toContain(t.endpoint);
      }
      for (const name of mcpTools) expect(body, name).toContain(name);
      if (url !== '/for-agents') for (const path of operations) expect(body, path).toContain(path);
    },
  );

  it('/skill.md opens with front matter naming the service and how to reach it', async () => {
    const body = await get('/skill.md', /^text\/markdown/);
    const m = /^---\n([\s\S]*?)\n---\n/.exec(body);
    expect(m, body.slice(0, 200)).not.toBeNull();
    const front = parseYaml(m![1]!) as Record<string, string>;
    expect(front).toMatchObject({
      name: 'eval-tools',
      openapi: `${PUBLIC_URL}/openapi.json`,
      mcp: `${PUBLIC_URL}/mcp`,
    });
    expect(front.description).toMatch(/receipt/);
  });

  it("/llms-full.txt holds every tool's example request, the one /api/examples serves", async () => {
    const body = await get('/llms-full.txt', /^text\/plain/);
    const { examples } = (await app.inject('/api/examples')).json<{ examples: Record<string, unknown> }>();
    for (const t of catalog.tools) expect(body, t.id).toContain(JSON.stringify(examples[t.id], null, 2));
  });

  it('/mcp.json is /.well-known/mcp.json, and both list exactly the MCP tools', async () => {
    const manifest = await get('/mcp.json', /^application\/json/);
    expect(manifest).toBe((await app.inject('/.well-known/mcp.json')).body);
    expect(JSON.parse(manifest)).toMatchObject({ endpoint: '/mcp', tools: mcpTools });
  });

  it('/robots.txt points at the sitemap; /sitemap.xml lists the pages, every tool page absolute', async () => {
    const robots = await get('/robots.txt', /^text\/plain/);
    expect(robots).toMatch(/^User-agent: \*$/m);
    expect(robots).toContain(`Sitemap: ${PUBLIC_URL}/sitemap.xml`);
    const xml = await get('/sitemap.xml', /^application\/xml/);
    const parsed = new XMLParser().parse(xml) as { urlset: { url: { loc: string }[] } };
    const locs = parsed.urlset.url.map((u) => u.loc);
    for (const t of catalog.tools) expect(locs).toContain(`${PUBLIC_URL}/tools/${t.id}`);
    for (const path of ['/', '/for-agents', '/skill.md', '/llms.txt', '/llms-full.txt', '/mcp.json'])
      expect(locs).toContain(`${PUBLIC_URL}${path}`);
    // Every listed page answers 200 here.
    for (const loc of locs)
      expect((await app.inject(loc.slice(PUBLIC_URL.length))).statusCode, loc).toBe(200);
  });

  it('/for-agents is a page without scripts under the strict CSP, with an MCP client configuration', async () => {
    const res = await app.inject('/for-agents');
    expect(res.headers['content-security-policy']).toMatch(/default-src 'none'/);
    expect(res.body).not.toMatch(/<script/i);
    expect(res.body).toContain(`&#34;url&#34;: &#34;${PUBLIC_URL}/mcp&#34;`);
  });
});
