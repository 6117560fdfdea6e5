/**
 * `log monitor --url <service> --state <file> [--keys <receipt-keys.json>] [--full]`: watches the
 * open-bench transparency log. It keeps the last signed tree head it accepted, the compact range
 * of the tree (one hash per complete subtree) and the key set it first saw (pinned). Each run:
 * the newest head must be signed by a pinned key, be no smaller, be proved consistent with the
 * kept head (RFC 9162 2.1.4.2), and the new entries must hash into exactly its root. `--full`
 * (and the first run) re-reads every entry. Exit 0 when the log held, 1 with an ALERT when it
 * did not (the state is kept as it was), 2 on usage or an unreachable service.
 */
import { rename, writeFile } from 'node:fs/promises';
import type { JWK } from 'jose';
import { CompactRange, leafHash, verifyConsistency } from '../../eval/open-bench/log/merkle.js';
import { verifyTreeHead, type SignedTreeHead } from '../../eval/open-bench/log/tree-head.js';
import type { Command } from './command.js';
import { flag, getJson, headLine, loadKeys, LOG_ROUTES, LogClientError, readJsonFile } from './log-client.js';

interface MonitorState {
  url: string;
  keys: JWK[];
  tree_head: SignedTreeHead;
  compact_range: { size: number; hashes: string[] };
}

class Inconsistent extends Error {}

const hex = (h: string): Buffer => Buffer.from(h, 'hex');

/** Appends entries [from, to) read from the service to `range`, checking each leaf hash. */
async function readEntries(url: string, range: CompactRange, from: number, to: number): Promise<void> {
  for (let start = from; start < to;) {
    const page = (await getJson(
      url,
      `${LOG_ROUTES}/entries?start=${start}&end=${Math.min(to, start + 100)}`,
    )) as {
      entries: { leaf_index: number; entry: string; leaf_hash: string }[];
    };
    if (page.entries.length === 0)
      throw new Inconsistent(`the log serves no entry at index ${start}, below its signed size ${to}`);
    for (const e of page.entries) {
      if (e.leaf_index !== range.size)
        throw new Inconsistent(
          `the log served index ${e.leaf_index} where index ${range.size} belongs: entries are missing or reordered`,
        );
      const leaf = leafHash(Buffer.from(e.entry, 'utf8'));
      if (leaf.toString('hex') !== e.leaf_hash)
        throw new Inconsistent(
          `entry ${e.leaf_index}'s bytes do not hash to its stated leaf hash: the entry was rewritten`,
        );
      range.append(leaf);
    }
    start += page.entries.length;
  }
}

function sameHistory(kept: SignedTreeHead, head: SignedTreeHead, proof: string[]): void {
  if (head.tree_size < kept.tree_size)
    throw new Inconsistent(
      `the log shrank from ${kept.tree_size} to ${head.tree_size} entries: entries were removed`,
    );
  if (head.timestamp < kept.timestamp)
    throw new Inconsistent(
      `the new tree head is signed earlier (${new Date(head.timestamp).toISOString()}) than the kept one`,
    );
  const problem = verifyConsistency(
    kept.tree_size,
    head.tree_size,
    hex(kept.root_hash),
    hex(head.root_hash),
    proof.map(hex),
  );
  if (problem)
    throw new Inconsistent(
      `the log's history was rewritten: the kept tree of ${kept.tree_size} entries (root ${kept.root_hash}) is not a prefix of the new tree of ${head.tree_size} entries (root ${head.root_hash}): ${problem}`,
    );
}

async function monitor(
  url: string,
  stateFile: string,
  keysFile: string | undefined,
  full: boolean,
): Promise<string> {
  let state: MonitorState | undefined;
  try {
    state = (await readJsonFile(stateFile)) as MonitorState;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new LogClientError(`cannot read ${stateFile}: ${(err as Error).message}`);
  }
  const keys = keysFile || !state ? await loadKeys(keysFile, url) : state.keys;
  const head = (await getJson(url, `${LOG_ROUTES}/tree-head`)) as SignedTreeHead;
  const headProblem = verifyTreeHead(head, keys);
  if (headProblem) throw new Inconsistent(`the newest tree head is refused: ${headProblem}`);
  let range: CompactRange;
  if (state) {
    const kept = state.tree_head;
    const proof =
      head.tree_size > kept.tree_size
        ? (
            (await getJson(
              url,
              `${LOG_ROUTES}/proof/consistency?first=${kept.tree_size}&second=${head.tree_size}`,
            )) as { consistency_path: string[] }
          ).consistency_path
        : [];
    sameHistory(kept, head, proof);
    range = new CompactRange(state.compact_range.size, state.compact_range.hashes.map(hex));
  } else range = new CompactRange();
  if (full) range = new CompactRange();
  const from = range.size;
  await readEntries(url, range, from, head.tree_size);
  if (range.root().toString('hex') !== head.root_hash)
    throw new Inconsistent(
      `the entries the log serves hash to root ${range.root().toString('hex')}, but its signed tree head of ${head.tree_size} entries says ${head.root_hash}`,
    );
  const next: MonitorState = {
    url,
    keys,
    tree_head: head,
    compact_range: { size: range.size, hashes: range.hashes.map((h) => h.toString('hex')) },
  };
  await writeFile(`${stateFile}.tmp`, JSON.stringify(next, null, 2));
  await rename(`${stateFile}.tmp`, stateFile);
  const kept = state
    ? `${head.tree_size - state.tree_head.tree_size} new entries since size ${state.tree_head.tree_size}`
    : 'first run';
  return `OK ${headLine(head)}; ${kept}, ${head.tree_size - from} entries checked`;
}

export const logCommand: Command = {
  name: 'log',
  summary: 'watch the open-bench transparency log; fail loudly on a rewritten, shrunk or forked history',
  usage: 'log monitor --url <service> --state <state.json> [--keys <receipt-keys.json>] [--full]',
  async run(argv) {
    const [verb, ...rest] = argv;
    const url = flag(rest, '--url');
    const stateFile = flag(rest, '--state');
    if (verb !== 'monitor' || !url || !stateFile) {
      process.stderr.write(`usage: ${this.usage}\n`);
      return 2;
    }
    try {
      process.stdout.write(
        `${await monitor(url, stateFile, flag(rest, '--keys'), rest.includes('--full'))}\n`,
      );
      return 0;
    } catch (err) {
      if (err instanceof Inconsistent) {
        process.stderr.write(
          `ALERT the open-bench log at ${url} is inconsistent: ${err.message}\nThe kept state in ${stateFile} is unchanged; keep it as evidence.\n`,
        );
        return 1;
      }
      if (err instanceof LogClientError) {
        process.stderr.write(`log monitor: ${err.message}\n`);
        return 2;
      }
      throw err;
    }
  },
};
