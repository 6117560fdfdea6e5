/** The discovery files for agents and crawlers, built once at start-up from discovery/model.ts. */
import type { FastifyInstance } from 'fastify';
import { forAgentsHtml, llmsFullTxt, robotsTxt, sitemapXml, skillMd } from '../discovery/documents.js';
import type { DiscoveryModel } from '../discovery/model.js';
import { llmsTxt } from './llms-txt.js';
import { mcpManifest } from './mcp.js';

export const DISCOVERY_PATHS = [
  '/skill.md',
  '/for-agents',
  '/robots.txt',
  '/sitemap.xml',
  '/llms-full.txt',
  '/mcp.json',
];

export function registerDiscoveryRoutes(app: FastifyInstance, model: DiscoveryModel): void {
  const files: [string, string, string][] = [
    ['/skill.md', 'text/markdown; charset=utf-8', skillMd(model)],
    ['/for-agents', 'text/html; charset=utf-8', forAgentsHtml(model)],
    ['/robots.txt', 'text/plain; charset=utf-8', robotsTxt(model)],
    ['/sitemap.xml', 'application/xml; charset=utf-8', sitemapXml(model)],
    ['/llms-full.txt', 'text/plain; charset=utf-8', llmsFullTxt(model, llmsTxt())],
    [
      '/mcp.json',
      'application/json; charset=utf-8',
      JSON.stringify(mcpManifest(model.mcpTools.map((t) => t.name))),
    ],
  ];
  for (const [path, type, body] of files) app.get(path, (_req, reply) => reply.type(type).send(body));
}
