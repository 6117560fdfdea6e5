/**
 * The client side of the open-bench transparency log (docs/open-bench.md#the-log): reading the
 * service's log routes and key set, and checking a public receipt's inclusion against a signed
 * tree head (RFC 9162 2.1.3.2), for `receipt verify` and `log monitor`.
 */
import { readFile } from 'node:fs/promises';
import type { JWK } from 'jose';
import { canonicalJson } from '../../core/canonical-json.js';
import { leafHash, verifyInclusion } from '../../eval/open-bench/log/merkle.js';
import { verifyTreeHead, type SignedTreeHead } from '../../eval/open-bench/log/tree-head.js';

export const LOG_ROUTES = '/api/open-bench/log';

export class LogClientError extends Error {}

export function flag(argv: readonly string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

export async function readJsonFile(file: string): Promise<unknown> {
  return JSON.parse(await readFile(file, 'utf8')) as unknown;
}

/** GET a JSON document from the service, within 15 s; a problem answer becomes its detail. */
export async function getJson(base: string, path: string): Promise<unknown> {
  const url = new URL(path, base.endsWith('/') ? base : `${base}/`);
  let res: Response;
  try {
    res = await fetch(url, { signal: AbortSignal.timeout(15_000), headers: { accept: 'application/json' } });
  } catch (err) {
    throw new LogClientError(`cannot reach ${url.origin}: ${(err as Error).message}`);
  }
  const body = (await res.json().catch(() => undefined)) as { detail?: string; message?: string } | undefined;
  if (!res.ok)
    throw new LogClientError(
      `${url.pathname} answered ${res.status}: ${body?.detail ?? body?.message ?? res.statusText}`,
    );
  return body;
}

export async function loadKeys(keysFile: string | undefined, url: string | undefined): Promise<JWK[]> {
  if (keysFile) return ((await readJsonFile(keysFile)) as { keys?: JWK[] }).keys ?? [];
  if (url) return ((await getJson(url, '/.well-known/receipt-keys.json')) as { keys?: JWK[] }).keys ?? [];
  throw new LogClientError('no key set: give --keys <receipt-keys.json> or --url <service>');
}

export interface InclusionAnswer {
  leaf_index: number;
  tree_size: number;
  leaf_hash: string;
  audit_path: string[];
  tree_head: SignedTreeHead;
}

export const headLine = (head: SignedTreeHead): string =>
  `tree head of size ${head.tree_size}, root ${head.root_hash}, signed at ${new Date(head.timestamp).toISOString()} by key ${head.signature.kid}`;

/**
 * Checks that `receipt` (a public receipt document) is in the log under a signed tree head: the
 * head from --tree-head, a saved --proof answer, or the service (--url). Returns the line to
 * print on success; throws LogClientError saying what failed.
 */
export async function checkReceiptInLog(receipt: unknown, argv: readonly string[]): Promise<string> {
  const url = flag(argv, '--url');
  const proofFile = flag(argv, '--proof');
  const headFile = flag(argv, '--tree-head');
  const keys = await loadKeys(flag(argv, '--keys'), url);
  const leaf = leafHash(Buffer.from(canonicalJson(receipt), 'utf8')).toString('hex');
  const saved = proofFile ? ((await readJsonFile(proofFile)) as InclusionAnswer) : undefined;
  const head = (
    headFile
      ? await readJsonFile(headFile)
      : (saved?.tree_head ?? (url ? await getJson(url, `${LOG_ROUTES}/tree-head`) : undefined))
  ) as SignedTreeHead | undefined;
  if (!head)
    throw new LogClientError(
      'no tree head: give --url <service>, --tree-head <sth.json> or --proof <proof.json>',
    );
  const headProblem = verifyTreeHead(head, keys);
  if (headProblem) throw new LogClientError(`BAD TREE HEAD: ${headProblem}`);
  let proof = saved;
  if (!proof || proof.tree_size !== head.tree_size) {
    if (!url)
      throw new LogClientError(
        `the saved proof is for tree size ${proof?.tree_size ?? '(none)'}, the tree head for ${head.tree_size}: give --url to fetch the proof for this head`,
      );
    proof = (await getJson(
      url,
      `${LOG_ROUTES}/proof/inclusion?leaf_hash=${leaf}&tree_size=${head.tree_size}`,
    )) as InclusionAnswer;
  }
  if (proof.leaf_hash !== leaf)
    throw new LogClientError(
      `NOT IN LOG: the proof is for leaf ${proof.leaf_hash}, this receipt's leaf hash is ${leaf}`,
    );
  const problem = verifyInclusion(
    proof.leaf_index,
    head.tree_size,
    Buffer.from(leaf, 'hex'),
    (proof.audit_path ?? []).map((h) => Buffer.from(h, 'hex')),
    Buffer.from(head.root_hash, 'hex'),
  );
  if (problem) throw new LogClientError(`NOT IN LOG: ${problem}`);
  return `OK included in the log at index ${proof.leaf_index}, ${headLine(head)}`;
}
