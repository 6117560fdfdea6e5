/**
 * The log's read endpoints, one descriptor each: the HTTP route, its OpenAPI entry and its MCP
 * tool are all derived from this list (routes/open-bench-log.ts, openapi.ts, mcp/open-bench-log-tools.ts).
 */
import type { Static, TSchema } from 'typebox';
import { LOG_PATH, type LogService } from './log-service.js';
import {
  ConsistencyQuery,
  EntriesQuery,
  InclusionQuery,
  MAX_ENTRIES_PER_PAGE,
  TreeHeadQuery,
} from './schemas.js';

export interface LogEndpoint<S extends TSchema = TSchema> {
  path: string;
  operationId: string;
  tool: string;
  title: string;
  description: string;
  /** The query string's schema (numbers coerced from text on HTTP), the MCP tool's input schema. */
  query: S;
  /** Example query, shown in a 400's hint. */
  example: string;
  run(service: LogService, query: Static<S>): Promise<object>;
}

const endpoint = <S extends TSchema>(e: LogEndpoint<S>): LogEndpoint => e;

export const LOG_ENDPOINTS: readonly LogEndpoint[] = [
  endpoint({
    path: `${LOG_PATH}/tree-head`,
    operationId: 'openBenchLogTreeHead',
    tool: 'open_bench_log_tree_head',
    title: 'Open-bench log: signed tree head',
    description:
      'The signed tree head {tree_size, root_hash, timestamp, signature} of the open-bench transparency log (RFC 9162 Merkle tree over the published public receipts), the latest or at a past tree_size. The Ed25519 signature covers the RFC 8785 JSON of {root_hash, timestamp, tree_size, type: "open-bench-log-tree-head/v1"}; keys at /.well-known/receipt-keys.json.',
    query: TreeHeadQuery,
    example: 'tree_size=12',
    run: (service, query) => service.treeHead(query),
  }),
  endpoint({
    path: `${LOG_PATH}/proof/inclusion`,
    operationId: 'openBenchLogInclusionProof',
    tool: 'open_bench_log_inclusion_proof',
    title: 'Open-bench log: inclusion proof',
    description:
      "The RFC 9162 audit path proving one entry (named by exactly one of leaf_index, leaf_hash, public_id) is in the tree of tree_size entries (the latest when absent), with that tree's signed head.",
    query: InclusionQuery,
    example: 'public_id=ob_AAAAAAAAAAAAAAAAAAAAAA&tree_size=12',
    run: (service, query) => service.inclusion(query),
  }),
  endpoint({
    path: `${LOG_PATH}/proof/consistency`,
    operationId: 'openBenchLogConsistencyProof',
    tool: 'open_bench_log_consistency_proof',
    title: 'Open-bench log: consistency proof',
    description:
      'The RFC 9162 consistency proof that the tree of `first` entries is a prefix of the tree of `second` entries (nothing removed, changed or reordered), with both signed heads.',
    query: ConsistencyQuery,
    example: 'first=8&second=12',
    run: (service, query) => service.consistency(query),
  }),
  endpoint({
    path: `${LOG_PATH}/entries`,
    operationId: 'openBenchLogEntries',
    tool: 'open_bench_log_entries',
    title: 'Open-bench log: entries',
    description: `Log entries [start, end) in publication order, at most ${MAX_ENTRIES_PER_PAGE} per request: each the public receipt's canonical JSON (the exact bytes hashed into the leaf), its leaf hash, index and public id.`,
    query: EntriesQuery,
    example: `start=0&end=${MAX_ENTRIES_PER_PAGE}`,
    run: (service, query) => service.entries(query),
  }),
];
