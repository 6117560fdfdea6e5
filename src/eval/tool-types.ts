/**
 * What a verifier tool is, for the registry: everything the routes, the pool, the catalog,
 * the examples, OpenAPI and stats need to know, and nothing that does I/O.
 */
import type { TSchema } from '@sinclair/typebox';
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
   * Pure: request (validated, defaults applied) -> receipt body. Throws `invalidInput(...)`
   * (core/errors) for semantic input errors the schema cannot express.
   */
  run: (request: Req) => AnyReceiptBody;
  /**
   * Where it runs: `pool` when its work can exceed a few milliseconds (the raw request bytes
   * go to a worker thread, which parses, validates, runs and seals); `inline` otherwise.
   */
  placement: 'pool' | 'inline';
}

/** Erases the request type so definitions of different tools fit one array. */
export function defineTool<Req>(def: ToolDefinition<Req>): ToolDefinition<unknown> {
  return def as unknown as ToolDefinition<unknown>;
}
