/**
 * The near-limit workload of every eval tool: one request per tool in the registry, built by its
 * definition's `workload()` (a new tool brings its own), and the schema limits it is held to.
 *
 *   node --import tsx bench/lib/workloads.ts OUTDIR    (writes OUTDIR/<tool id>.json)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TSchema } from 'typebox';
import { TOOLS } from '../../src/eval/registry.js';
import type { ToolDefinition } from '../../src/eval/tool-definition.js';

export interface Workload {
  tool: ToolDefinition;
  /** The request as sent: JSON text. */
  body: string;
}

/** Every tool's workload, in catalog order. */
export function workloads(): Workload[] {
  return TOOLS.map((tool) => ({ tool, body: JSON.stringify(tool.workload()) }));
}

/** One bounded field of a request: its size in the request beside its schema limit. */
export interface FieldFill {
  field: string;
  size: number;
  limit: number;
}

/** The size a list, map or text keyword bounds, or undefined for a value it does not bound. */
function sizeOf(value: unknown, keyword: 'maxItems' | 'maxProperties' | 'maxLength'): number | undefined {
  if (keyword === 'maxItems') return Array.isArray(value) ? value.length : undefined;
  if (keyword === 'maxLength') return typeof value === 'string' ? [...value].length : undefined;
  return value !== null && typeof value === 'object' ? Object.keys(value).length : undefined;
}

/**
 * The request's top-level fields that the schema bounds in size (maxItems, maxProperties,
 * maxLength) and that the request holds, each with its size and limit.
 */
export function fieldFills(schema: TSchema, request: Record<string, unknown>): FieldFill[] {
  const properties = (schema as { properties?: Record<string, Record<string, unknown>> }).properties ?? {};
  return Object.entries(properties).flatMap(([field, property]) =>
    (['maxItems', 'maxProperties', 'maxLength'] as const).flatMap((keyword) => {
      const limit = property[keyword];
      const size = sizeOf(request[field], keyword);
      return typeof limit === 'number' && size !== undefined ? [{ field, size, limit }] : [];
    }),
  );
}

/** Writes `<tool id>.json` per tool into `dir`; the files' paths by tool id. */
export function writeWorkloads(dir: string): Map<string, string> {
  mkdirSync(dir, { recursive: true });
  return new Map(
    workloads().map(({ tool, body }) => {
      const file = path.join(dir, `${tool.id}.json`);
      writeFileSync(file, body);
      return [tool.id, file];
    }),
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const dir = process.argv[2];
  if (!dir) throw new Error('usage: node --import tsx bench/lib/workloads.ts OUTDIR');
  for (const [id, file] of writeWorkloads(dir)) process.stdout.write(`${id}: ${file}\n`);
}
