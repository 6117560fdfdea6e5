/**
 * `receipt verify <receipt.json> [--request <request.json>]`: recomputes every hash of a saved
 * receipt offline: a tool receipt (an open-bench receipt also has its tallies and verdict
 * re-derived from its items), a signed report-card result (`--keys`), or an open-bench public
 * receipt (`--private <receipt.json>` also ties it to the private one; `--url`, `--tree-head` or
 * `--proof` also check its inclusion in the transparency log, log-client.ts). Exit 0 when all hold;
 * 1 and the differing fields when not; 2 on usage or unreadable input.
 */
import { readFile } from 'node:fs/promises';
import { verifyReceipt, type Receipt } from '../../core/receipt.js';
import type { JWK } from 'jose';
import {
  PUBLIC_RECEIPT_KIND,
  verifyOpenBenchReceipt,
  verifyPublicReceipt,
  type PublicReceipt,
} from '../../eval/open-bench/public-receipt.js';
import { verifySignedResult, type Signature } from '../../eval/report-card/signing.js';
import type { Command } from './command.js';
import { checkReceiptInLog } from './log-client.js';

async function readJson(file: string): Promise<unknown> {
  const text = file === '-' ? await readStdin() : await readFile(file, 'utf8');
  return JSON.parse(text) as unknown;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

interface SignedDocument {
  result: unknown;
  signature: Signature;
}

/** A signed result (report card): the JWS must verify against the saved key set and sign exactly `result`. */
async function verifySigned(doc: SignedDocument, keysFile: string | undefined): Promise<number> {
  if (!keysFile) {
    process.stderr.write(
      'a signed result needs --keys <receipt-keys.json> (saved from /.well-known/receipt-keys.json)\n',
    );
    return 2;
  }
  let keys: JWK[];
  try {
    keys = ((await readJson(keysFile)) as { keys?: JWK[] }).keys ?? [];
  } catch (err) {
    process.stderr.write(`cannot read the key set: ${(err as Error).message}\n`);
    return 2;
  }
  const outcome = await verifySignedResult(keys, doc.result, doc.signature);
  if (outcome.ok) {
    process.stdout.write(`OK signed result, Ed25519 key ${outcome.kid}\n`);
    return 0;
  }
  process.stdout.write(`BAD SIGNATURE: ${outcome.reason}\n`);
  return 1;
}

function report(problems: readonly string[], ok: string): number {
  if (problems.length === 0) {
    process.stdout.write(`${ok}\n`);
    return 0;
  }
  for (const p of problems) process.stdout.write(`MISMATCH ${p}\n`);
  return 1;
}

const LOG_FLAGS = ['--url', '--tree-head', '--proof'];

/** An open-bench public receipt, optionally against the private receipt and the log. */
async function verifyPublic(doc: PublicReceipt, argv: readonly string[]): Promise<number> {
  const privateFlag = argv.indexOf('--private');
  const privateFile = privateFlag >= 0 ? argv[privateFlag + 1] : undefined;
  let privateReceipt: Receipt | undefined;
  try {
    if (privateFile) privateReceipt = (await readJson(privateFile)) as Receipt;
  } catch (err) {
    process.stderr.write(`cannot read the private receipt: ${(err as Error).message}\n`);
    return 2;
  }
  const code = report(
    verifyPublicReceipt(doc, privateReceipt),
    `OK open-bench public receipt ${doc.public_id} ${doc.hashes?.public_sha256}${privateFile ? ' (matches the private receipt)' : ''}`,
  );
  if (!LOG_FLAGS.some((f) => argv.includes(f))) return code;
  try {
    process.stdout.write(`${await checkReceiptInLog(doc, argv)}\n`);
    return code;
  } catch (err) {
    process.stdout.write(`LOG CHECK FAILED: ${(err as Error).message}\n`);
    return 1;
  }
}

export const receiptVerifyCommand: Command = {
  name: 'receipt',
  summary: 'verify a saved receipt by recomputing every hash',
  usage:
    'receipt verify <receipt.json|-> [--request <request-after-defaults.json>] [--keys <receipt-keys.json>] [--private <open-bench-receipt.json>] [--url <service> | --tree-head <sth.json> | --proof <inclusion.json>]',
  async run(argv) {
    const [verb, file, ...rest] = argv;
    if (verb !== 'verify' || !file) {
      process.stderr.write(`usage: ${this.usage}\n`);
      return 2;
    }
    const requestFlag = rest.indexOf('--request');
    const requestFile = requestFlag >= 0 ? rest[requestFlag + 1] : undefined;
    let receipt: unknown;
    let request: unknown;
    try {
      receipt = await readJson(file);
      if (requestFile) request = await readJson(requestFile);
    } catch (err) {
      process.stderr.write(`cannot read input: ${(err as Error).message}\n`);
      return 2;
    }
    if (receipt !== null && typeof receipt === 'object' && 'signature' in receipt && 'result' in receipt) {
      const keysFlag = rest.indexOf('--keys');
      return verifySigned(receipt as SignedDocument, keysFlag >= 0 ? rest[keysFlag + 1] : undefined);
    }
    if (
      receipt !== null &&
      typeof receipt === 'object' &&
      (receipt as { kind?: unknown }).kind === PUBLIC_RECEIPT_KIND
    ) {
      return verifyPublic(receipt as PublicReceipt, rest);
    }
    if (receipt === null || typeof receipt !== 'object' || !('hashes' in receipt)) {
      process.stderr.write('not a receipt: no "hashes" object\n');
      return 1;
    }
    const mismatches = verifyReceipt(receipt as Receipt, request);
    const derived =
      (receipt as Receipt).tool === 'open-bench' ? verifyOpenBenchReceipt(receipt as Receipt) : [];
    for (const d of derived) process.stdout.write(`MISMATCH ${d}\n`);
    if (mismatches.length === 0 && derived.length === 0) {
      const r = receipt as Receipt;
      process.stdout.write(
        `OK ${r.tool} receipt ${r.hashes.receipt_sha256}${requestFile ? ' (request hash checked too)' : ''}\n`,
      );
      return 0;
    }
    for (const m of mismatches) {
      process.stdout.write(
        `MISMATCH ${m.field}: recomputed ${m.expected}, receipt says ${m.actual ?? '(missing)'}\n`,
      );
    }
    return 1;
  },
};
