/**
 * The open-bench log's answers: signed tree heads, inclusion and consistency proofs (RFC 9162
 * 2.1.3 and 2.1.4) read from the stored subtree hashes in one query each, and entries by range.
 */
import { noLedger } from '../../errors.js';
import {
  badEntryRange,
  beyondLog,
  emptyLog,
  firstAfterSecond,
  indexBeyondTree,
  notInLog,
  notOneSelector,
  notYetInTree,
} from './errors.js';
import {
  consistencyRanges,
  inclusionRanges,
  rangeHash,
  rangeNodes,
  type LeafRange,
  type NodeKey,
} from './merkle.js';
import type { ConsistencyQuery, EntriesQuery, InclusionQuery, TreeHeadQuery } from './schemas.js';
import { MAX_ENTRIES_PER_PAGE } from './schemas.js';
import type { SignedTreeHead } from './tree-head.js';

export interface LogReader {
  latestHead(): Promise<SignedTreeHead | undefined>;
  headAt(size: number): Promise<SignedTreeHead | undefined>;
  nodes(keys: readonly NodeKey[]): Promise<Map<string, Buffer>>;
  leafIndexOf(by: { leaf_hash: string } | { public_id: string }): Promise<number | undefined>;
  entries(
    start: number,
    end: number,
  ): Promise<{ leaf_index: number; public_id: string; entry: string; leaf_hash: string }[]>;
}

export const LOG_PATH = '/api/open-bench/log';

export class LogService {
  /** `read` runs a read, turning a database that is down into a 503 (absent without a ledger). */
  constructor(
    private readonly reader: LogReader | undefined,
    private readonly read: <T>(fn: () => Promise<T>) => Promise<T>,
  ) {}

  private store(): LogReader {
    if (!this.reader) throw noLedger();
    return this.reader;
  }

  private async latest(): Promise<SignedTreeHead> {
    const head = await this.read(() => this.store().latestHead());
    if (!head) throw emptyLog();
    return head;
  }

  /** The head at `size` (at most the latest size), else a 400 naming the latest size. */
  private async headAt(size: number | undefined, field = 'tree_size'): Promise<SignedTreeHead> {
    const latest = await this.latest();
    if (size === undefined || size === latest.tree_size) return latest;
    if (size > latest.tree_size) throw beyondLog(field, size, latest.tree_size);
    const head = await this.read(() => this.store().headAt(size));
    if (!head) throw new Error(`the log has no tree head at size ${size}`);
    return head;
  }

  private async hashes(ranges: LeafRange[]): Promise<string[]> {
    const nodes = await this.read(() => this.store().nodes(ranges.flatMap(rangeNodes)));
    return ranges.map((r) => rangeHash(r, nodes).toString('hex'));
  }

  async treeHead(query: TreeHeadQuery): Promise<SignedTreeHead> {
    return this.headAt(query.tree_size);
  }

  async inclusion(query: InclusionQuery): Promise<object> {
    const selectors = [query.leaf_index, query.leaf_hash, query.public_id].filter((s) => s !== undefined);
    if (selectors.length !== 1) throw notOneSelector(selectors.length);
    const head = await this.headAt(query.tree_size);
    const n = head.tree_size;
    let index = query.leaf_index;
    if (index === undefined) {
      const by =
        query.leaf_hash !== undefined ? { leaf_hash: query.leaf_hash } : { public_id: query.public_id! };
      index = await this.read(() => this.store().leafIndexOf(by));
      if (index === undefined) throw notInLog('leaf_hash' in by ? 'leaf hash' : 'public id');
      if (index >= n) throw notYetInTree(index, n);
    } else if (index >= n) throw indexBeyondTree('leaf_index', index, n);
    const [leaf] = await this.hashes([{ start: index, end: index + 1 }]);
    return {
      leaf_index: index,
      tree_size: n,
      leaf_hash: leaf,
      audit_path: await this.hashes(inclusionRanges(index, n)),
      tree_head: head,
    };
  }

  async consistency(query: ConsistencyQuery): Promise<object> {
    if (query.first > query.second) throw firstAfterSecond(query.first, query.second);
    const second = await this.headAt(query.second, 'second');
    const first = await this.headAt(query.first, 'first');
    return {
      first: query.first,
      second: query.second,
      consistency_path:
        query.first === query.second ? [] : await this.hashes(consistencyRanges(query.first, query.second)),
      first_tree_head: first,
      second_tree_head: second,
    };
  }

  async entries(query: EntriesQuery): Promise<object> {
    const size = (await this.latest()).tree_size;
    const end = query.end ?? Math.min(query.start + MAX_ENTRIES_PER_PAGE, size);
    if (query.start >= size || end <= query.start || end > size || end - query.start > MAX_ENTRIES_PER_PAGE)
      throw badEntryRange(query.start, end, size, MAX_ENTRIES_PER_PAGE);
    const rows = await this.read(() => this.store().entries(query.start, end));
    return {
      start: query.start,
      end,
      tree_size: size,
      ...(end < size ? { next: `${LOG_PATH}/entries?start=${end}` } : {}),
      entries: rows,
    };
  }
}
