/** Query schemas of the log routes (also the MCP tools' input schemas). */
import { Type, type Static } from 'typebox';
import { PUBLIC_ID_PATTERN } from '../schemas.js';

/** Entries per request of GET /api/open-bench/log/entries. */
export const MAX_ENTRIES_PER_PAGE = 100;
/** Indexes are stored as bigint but read as int4: far beyond any open bench's size. */
export const MAX_TREE_SIZE = 2 ** 31 - 1;

const Size = (description: string) => Type.Integer({ minimum: 1, maximum: MAX_TREE_SIZE, description });
const Index = (description: string) => Type.Integer({ minimum: 0, maximum: MAX_TREE_SIZE - 1, description });

export const TreeHeadQuery = Type.Object(
  { tree_size: Type.Optional(Size('A past tree size; the latest head when absent')) },
  { additionalProperties: false },
);
export type TreeHeadQuery = Static<typeof TreeHeadQuery>;

export const InclusionQuery = Type.Object(
  {
    leaf_index: Type.Optional(Index('The entry by its index in the log (0-based)')),
    leaf_hash: Type.Optional(
      Type.String({
        pattern: '^[0-9a-f]{64}$',
        description:
          "64 lowercase hexadecimal digits: the entry's leaf hash, SHA-256(0x00 || canonical public receipt)",
      }),
    ),
    public_id: Type.Optional(
      Type.String({
        pattern: PUBLIC_ID_PATTERN,
        description: "ob_ and 22 letters, digits, _ or -: the entry's public id",
      }),
    ),
    tree_size: Type.Optional(Size('The tree the proof is for; the latest when absent')),
  },
  { additionalProperties: false },
);
export type InclusionQuery = Static<typeof InclusionQuery>;

export const ConsistencyQuery = Type.Object(
  {
    first: Size('The older tree size'),
    second: Size('The newer tree size (at least first)'),
  },
  { additionalProperties: false },
);
export type ConsistencyQuery = Static<typeof ConsistencyQuery>;

export const EntriesQuery = Type.Object(
  {
    start: Index('The first index, inclusive'),
    end: Type.Optional(
      Size(
        `The index after the last one (exclusive); at most start + ${MAX_ENTRIES_PER_PAGE}, default that or the log's size`,
      ),
    ),
  },
  { additionalProperties: false },
);
export type EntriesQuery = Static<typeof EntriesQuery>;
