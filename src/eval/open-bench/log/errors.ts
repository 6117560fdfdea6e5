/** The log's errors, each worded once. */
import { AppError, invalidInput } from '../../../core/errors.js';

export const emptyLog = () =>
  new AppError('not_found', 'The log is empty: nothing has been published yet, so there is no tree head.');
export const beyondLog = (field: string, value: number, size: number) =>
  invalidInput(
    `${field}=${value} is beyond the log, which holds ${size} entries; ask for ${field} between 1 and ${size} (GET /api/open-bench/log/tree-head gives the latest size).`,
    [{ path: `/${field}`, message: `must be at most ${size}` }],
  );
export const indexBeyondTree = (field: string, index: number, size: number) =>
  invalidInput(
    `${field}=${index} is not in a tree of ${size} entries; indexes run from 0 to ${size - 1} (a later tree_size includes later entries).`,
    [{ path: `/${field}`, message: `must be below ${size}` }],
  );
export const notOneSelector = (given: number) =>
  invalidInput(
    given === 0
      ? 'Name the entry: give exactly one of leaf_index, leaf_hash or public_id.'
      : 'Give exactly one of leaf_index, leaf_hash or public_id, not several.',
    [{ path: '', message: 'exactly one of leaf_index, leaf_hash, public_id' }],
  );
export const firstAfterSecond = (first: number, second: number) =>
  invalidInput(
    `first=${first} is larger than second=${second}; a consistency proof goes from an older (smaller) tree to a newer one: swap them.`,
    [{ path: '/first', message: 'must be at most second' }],
  );
/** end outside (start, min(start + max, size)]. */
const badEnd = (start: number, end: number, size: number, max: number) =>
  invalidInput(
    end <= start
      ? `end=${end} must be larger than start=${start} (end is exclusive).`
      : end - start > max
        ? `At most ${max} entries per request; ask for start=${start}&end=${Math.min(start + max, size)} and page on.`
        : `end=${end} is beyond the log, which holds ${size} entries; ask for end at most ${size}.`,
    [{ path: '/end', message: `between start + 1 and min(start + ${max}, ${size})` }],
  );
export const badEntryRange = (start: number, end: number, size: number, max: number) =>
  start >= size
    ? invalidInput(
        size === 0
          ? `start=${start}: the log is empty, nothing has been published yet.`
          : `start=${start} is beyond the log, which holds ${size} entries; ask for start from 0 to ${size - 1}.`,
        [{ path: '/start', message: size === 0 ? 'the log holds no entries yet' : `must be below ${size}` }],
      )
    : badEnd(start, end, size, max);

export const notInLog = (what: string) =>
  new AppError(
    'not_found',
    `No entry with that ${what} is in the log; GET /api/open-bench/log/entries lists them.`,
  );
export const notYetInTree = (index: number, size: number) =>
  new AppError(
    'not_found',
    `That entry was appended at index ${index}, after the tree of ${size} entries you asked about; ask with tree_size above ${index}.`,
  );
