/**
 * What the discovery files (/skill.md, /for-agents, /llms-full.txt, /robots.txt, /sitemap.xml)
 * say, read from the three sources agents already trust: the catalog (TOOLS and the upload
 * tools), the OpenAPI document and the MCP tool list. Nothing here is written by hand, so the
 * files cannot drift from what the service serves.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { TOOLS } from '../registry.js';
import { UPLOAD_TOOLS } from '../routes/info.js';

export interface DiscoveryTool {
  id: string;
  name: string;
  method: string;
  endpoint: string;
  contentType: string;
  promise: string;
  operationId: string;
  /** The MCP tool of the same name, when the tool has one. */
  mcpName: string | undefined;
}

export interface DiscoveryOperation {
  method: string;
  path: string;
  operationId: string;
  summary: string;
  /** The request body's example, when the document gives one. */
  example: unknown;
}

export interface DiscoveryModel {
  title: string;
  description: string;
  version: string;
  publicUrl: string;
  tools: DiscoveryTool[];
  operations: DiscoveryOperation[];
  mcpTools: { name: string; description: string }[];
}

interface OpenApiOperation {
  operationId?: string;
  summary?: string;
  requestBody?: { content?: Record<string, { example?: unknown }> };
}

export interface OpenApiDocument {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, OpenApiOperation>>;
}

export function discoveryModel(input: {
  publicUrl: string;
  openapi: OpenApiDocument;
  mcpTools: readonly Pick<Tool, 'name' | 'description'>[];
}): DiscoveryModel {
  const mcpNames = new Set(input.mcpTools.map((t) => t.name));
  const tools: DiscoveryTool[] = [
    ...TOOLS.map((t) => ({ ...t, endpoint: t.path, contentType: 'application/json' })),
    ...UPLOAD_TOOLS.map((t) => ({ ...t, contentType: t.content_type })),
  ].map((t) => ({
    id: t.id,
    name: t.name,
    method: t.method,
    endpoint: t.endpoint,
    contentType: t.contentType,
    promise: t.promise,
    operationId: t.operationId,
    mcpName: mcpNames.has(t.id) ? t.id : undefined,
  }));
  const operations = Object.entries(input.openapi.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      operationId: op.operationId ?? '',
      summary: op.summary ?? '',
      example: op.requestBody?.content?.['application/json']?.example,
    })),
  );
  return {
    title: input.openapi.info.title,
    description: input.openapi.info.description ?? '',
    version: input.openapi.info.version,
    publicUrl: input.publicUrl.replace(/(?<!\/)\/+$/, ''),
    tools,
    operations,
    mcpTools: input.mcpTools.map((t) => ({ name: t.name, description: t.description ?? '' })),
  };
}

/** The pages and documents a crawler may index, as paths (sitemap.xml lists them absolute). */
export function publicPages(model: DiscoveryModel): string[] {
  return [
    '/',
    '/for-agents',
    '/skill.md',
    '/llms.txt',
    '/llms-full.txt',
    '/openapi.json',
    '/mcp.json',
    '/api/catalog',
    '/api/examples',
    '/report-card',
    '/leaderboard',
    // The workbench has a page per catalog tool (the upload tool is called from its gate page).
    ...model.tools.filter((t) => t.contentType === 'application/json').map((t) => `/tools/${t.id}`),
  ];
}
