/** The discovery files' text, each a pure function of the discovery model (model.ts). */
import { publicPages, type DiscoveryModel, type DiscoveryTool } from './model.js';

const firstSentence = (text: string): string =>
  /^[^\n]*?[.!?](?=\s|$)/.exec(text)?.[0] ?? text.split('\n')[0]!;

const callLine = (t: DiscoveryTool): string =>
  `${t.method} ${t.endpoint} (${t.contentType}${t.mcpName ? `; MCP tool \`${t.mcpName}\`` : ''})`;

const HOW_TO_CALL = (m: DiscoveryModel): string[] => [
  `- HTTP: send the tool's request body to its endpoint. GET ${m.publicUrl}/api/examples holds a complete valid body for every tool; ${m.publicUrl}/openapi.json the exact schemas.`,
  `- MCP: Streamable HTTP at ${m.publicUrl}/mcp (stateless, JSON responses, no session); the manifest is at /mcp.json and /.well-known/mcp.json. A tool call answers with the same receipt bytes as its HTTP endpoint.`,
  '- Many calls at once: POST /api/batch (application/x-ndjson), one {"id", "tool", "request"} line per call; answers stream back in input order.',
  '- No authentication. Requests are rate limited per client (429 with Retry-After); a dependency that is down is a 503 with Retry-After.',
  '- Every answer is a receipt: canonical JSON (RFC 8785) sealed with SHA-256 hashes and an item-level decision path; equal requests give equal bytes. Bad input is a 400 application/problem+json with errors[] (JSON pointers) and a hint.',
];

/** /skill.md: what the service does and how to call it, front matter first (Agent Skills style). */
export function skillMd(m: DiscoveryModel): string {
  const tools = m.tools.map(
    (t) =>
      `| \`${t.id}\` | \`${t.method} ${t.endpoint}\` | ${t.mcpName ? `\`${t.mcpName}\`` : '—'} | ${t.promise} |`,
  );
  return [
    '---',
    'name: eval-tools',
    `description: ${JSON.stringify(`${m.description} Call the tools over HTTP (OpenAPI) or MCP.`)}`,
    `version: ${JSON.stringify(m.version)}`,
    `url: ${m.publicUrl}/`,
    `openapi: ${m.publicUrl}/openapi.json`,
    `mcp: ${m.publicUrl}/mcp`,
    '---',
    '',
    `# ${m.title} ${m.version}`,
    '',
    m.description,
    '',
    '## How to call',
    '',
    ...HOW_TO_CALL(m),
    '',
    '## Tools',
    '',
    '| tool | HTTP | MCP tool | what it does |',
    '| --- | --- | --- | --- |',
    ...tools,
    '',
    '## MCP tools',
    '',
    ...m.mcpTools.map((t) => `- \`${t.name}\`: ${firstSentence(t.description)}`),
    '',
    '## Every HTTP operation',
    '',
    ...m.operations.map((o) => `- \`${o.method} ${o.path}\` (${o.operationId}): ${o.summary}`),
    '',
    `More: ${m.publicUrl}/llms-full.txt (every example request), ${m.publicUrl}/for-agents.`,
    '',
  ].join('\n');
}

/** /llms-full.txt: llms.txt's guide with every tool's example request and every MCP tool's description. */
export function llmsFullTxt(m: DiscoveryModel, llmsTxt: string): string {
  const byOperation = new Map(m.operations.map((o) => [o.operationId, o]));
  const tools = m.tools.map((t) => {
    const example = byOperation.get(t.operationId)?.example;
    const mcp = m.mcpTools.find((x) => x.name === t.mcpName);
    return [
      `### ${t.id}: ${t.name}`,
      '',
      `${callLine(t)}`,
      '',
      t.promise,
      ...(mcp ? ['', `MCP: ${mcp.description}`] : []),
      ...(example !== undefined ? ['', 'Example request body:', '', JSON.stringify(example, null, 2)] : []),
    ].join('\n');
  });
  const others = m.mcpTools
    .filter((x) => !m.tools.some((t) => t.mcpName === x.name))
    .map((x) => `- ${x.name}: ${x.description}`);
  return [
    llmsTxt.trimEnd(),
    '',
    '## How to call',
    ...HOW_TO_CALL(m),
    '',
    '## Every tool in full',
    '',
    tools.join('\n\n'),
    '',
    '## The other MCP tools',
    ...others,
    '',
    '## Every HTTP operation',
    ...m.operations.map((o) => `- ${o.method} ${o.path} (${o.operationId}): ${o.summary}`),
    '',
  ].join('\n');
}

const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** /for-agents: a page for people who wire agents to the service (no script, no style). */
export function forAgentsHtml(m: DiscoveryModel): string {
  const e = escapeHtml;
  const mcpConfig = JSON.stringify(
    { mcpServers: { 'eval-tools': { type: 'http', url: `${m.publicUrl}/mcp` } } },
    null,
    2,
  );
  const rows = m.tools.map(
    (t) =>
      `<tr><td><a href="/tools/${e(t.id)}"><code>${e(t.id)}</code></a></td><td><code>${e(`${t.method} ${t.endpoint}`)}</code></td><td>${t.mcpName ? `<code>${e(t.mcpName)}</code>` : '—'}</td><td>${e(t.promise)}</td></tr>`,
  );
  const link = (path: string, what: string) => `<li><a href="${e(path)}">${e(path)}</a>: ${e(what)}</li>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>For agents: ${e(m.title)}</title>
<link rel="alternate" type="text/markdown" href="/skill.md">
</head>
<body>
<main>
<h1>Wiring an agent to the ${e(m.title)}</h1>
<p>${e(m.description)} Version ${e(m.version)}.</p>
<h2>Connect over MCP</h2>
<p>Streamable HTTP at <code>${e(`${m.publicUrl}/mcp`)}</code>: stateless, JSON responses, no authentication. A client configuration:</p>
<pre><code>${e(mcpConfig)}</code></pre>
<h2>Or call HTTP</h2>
<ul>${HOW_TO_CALL(m)
    .map((l) => `<li>${e(l.replace(/^- /, ''))}</li>`)
    .join('')}</ul>
<h2>Tools</h2>
<table>
<thead><tr><th>tool</th><th>HTTP</th><th>MCP tool</th><th>what it does</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>
<h2>MCP tools</h2>
<ul>${m.mcpTools.map((t) => `<li><code>${e(t.name)}</code>: ${e(firstSentence(t.description))}</li>`).join('')}</ul>
<h2>Files for agents</h2>
<ul>
${link('/skill.md', 'what the service does and how to call it, with front matter')}
${link('/llms.txt', 'the short guide')}
${link('/llms-full.txt', 'the guide with every example request')}
${link('/openapi.json', 'OpenAPI 3.1, the exact schemas')}
${link('/mcp.json', 'the MCP manifest (also at /.well-known/mcp.json)')}
${link('/api/examples', 'a complete valid request for every tool')}
${link('/api/catalog', 'the catalog')}
</ul>
</main>
</body>
</html>
`;
}

/** /robots.txt: pages and documents may be crawled; answers that change per call may not. */
export function robotsTxt(m: DiscoveryModel): string {
  return [
    '# Agents: start at /skill.md or /llms.txt; MCP at /mcp (manifest /mcp.json).',
    'User-agent: *',
    'Allow: /',
    'Allow: /api/catalog',
    'Allow: /api/examples',
    'Disallow: /api/',
    'Disallow: /mcp',
    '',
    `Sitemap: ${m.publicUrl}/sitemap.xml`,
    '',
  ].join('\n');
}

/** /sitemap.xml: every public page and discovery document, absolute. */
export function sitemapXml(m: DiscoveryModel): string {
  const urls = publicPages(m).map((p) => `  <url><loc>${escapeHtml(`${m.publicUrl}${p}`)}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
${urls.join('\n')}
</urlset>
`;
}
