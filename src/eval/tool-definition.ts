/**
 * What a verifier tool is, for the registry: everything the routes, the pool, the catalog,
 * the examples, OpenAPI and stats need to know, and nothing that does I/O.
 */
import type { TSchema } from 'typebox';
import type { AnyReceiptBody } from '../core/receipt.js';

export interface ToolDefinition<Req = unknown> {
  /** Catalog id, also the `tool` field of its receipts. */
  id: string;
  /** The seed's operationId (e.g. `inspector` for /api/inspect). */
  operationId: string;
  /** Human name for the catalog. */
  name: string;
  method: 'POST';
  /** Route path, e.g. `/api/gate`. */
  path: string;
  /** One-line promise shown in the catalog. */
  promise: string;
  /** The request schema: validates requests (with defaults applied) and feeds OpenAPI and MCP. */
  schema: TSchema;
  /** A complete valid request; `/api/examples` serves it and it must answer 200. */
  example: Req;
  /**
   * A valid request near the schema's limits (each bounded list, map or text it holds at 90-100%
   * of its limit), the same on every run: the benchmarks' workload (bench/lib/workloads.ts) and
   * what `costMsPerKiB` is measured on. Built on demand, never at start-up.
   */
  workload(): Req;
  /**
   * Pure: request (validated, defaults applied) -> receipt body. Throws `invalidInput(...)`
   * (core/errors) for semantic input errors the schema cannot express. A method, so a
   * definition keeps its request type and still fits the registry's list. `listed` holds the
   * key lists validation made, for a tool that would list the same keys again.
   */
  run(request: Req, listed?: ListedKeys): AnyReceiptBody;
  /**
   * The tool's declared worst case: milliseconds of parsing, validation, running and sealing
   * per KiB of request body (how it is measured: docs/speed.md); null when the cost is not
   * bounded by the body (a search). It bounds which requests may run on the event loop
   * (speed/placement.ts).
   */
  costMsPerKiB: number | null;
}

/**
 * The own keys of the request's maps, as the validator listed them on its first pass
 * (core/validation.ts `Validated.mapKeys`); a tool may take its maps' keys from here instead of
 * listing them again. Empty when the validator made no lists.
 */
export type ListedKeys = ReadonlyMap<object, readonly string[]>;

/** A tool definition, with its request type checked against its schema's example and runner. */
export function defineTool<Req>(def: ToolDefinition<Req>): ToolDefinition<Req> {
  return def;
}
