/**
 * For bench/health-under-load.ts: a service's registered routes (app.printRoutes) as `METHOD path`
 * lines, and which have a row and, for each that has none, why — in one line (HEAD twins in one line).
 */
import type { FastifyInstance } from 'fastify';

/** Parses printRoutes' radix tree (prefixes joined from the root down) into `METHOD path` lines. */
export function routesOf(app: FastifyInstance): string[] {
  const stack: string[] = [];
  const routes: string[] = [];
  for (const line of app.printRoutes().split('\n')) {
    const m = /^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) continue;
    const depth = m[1]!.length / 4;
    stack.length = depth;
    stack.push(m[2]!);
    for (const method of m[3]?.split(', ') ?? []) routes.push(`${method} ${stack.join('')}`);
  }
  return routes;
}

interface Coverage {
  /** One line per route with no row but a reason (HEAD twins of driven GETs: one line for all). */
  explained: string[];
  /** Routes with no row and no reason. */
  missing: string[];
  /** Routes with a row. */
  driven: number;
}

/** `reason` names the service's own routes without a row by design (its polled health route, …). */
export function coverage(
  routes: string[],
  driven: Iterable<string>,
  reason: (method: string, path: string) => string | undefined,
): Coverage {
  const all = new Set(routes);
  const rows = new Set(driven);
  const explained: string[] = [];
  const missing: string[] = [];
  const twins: string[] = [];
  let covered = 0;
  for (const route of routes) {
    const [method, path] = route.split(' ') as [string, string];
    const why =
      reason(method, path) ??
      (method === 'HEAD' && all.has(`GET ${path}`)
        ? `HEAD twin of GET ${path}, which has no row either`
        : undefined);
    if (rows.has(route)) covered++;
    else if (method === 'HEAD' && rows.has(`GET ${path}`)) twins.push(`\`${path}\``);
    else if (why) explained.push(`\`${route}\`: ${why}`);
    else missing.push(`\`${route}\``);
  }
  if (twins.length)
    explained.unshift(
      `HEAD of ${twins.length} paths whose GET has a row (the GET's handler, the body not sent): ${twins.join(', ')}`,
    );
  return { explained, missing, driven: covered };
}

/** The lines under the table: how many routes, how many with a row, the rest and why. */
export function coverageNotes(service: string, routes: string[], c: Coverage): string[] {
  return [
    `${service} routes registered (app.printRoutes): ${routes.length}; with a row: ${c.driven}.`,
    '',
    c.missing.length
      ? `${service} routes with no row: ${c.missing.join(', ')}.`
      : `Every ${service.toLowerCase()} route has a row or a reason.`,
    '',
    `${service} routes without a row of their own, and why:`,
    '',
    ...c.explained.map((e) => `- ${e}`),
    '',
  ];
}
