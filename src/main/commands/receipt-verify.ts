/**
 * `receipt verify <receipt.json> [--request <request.json>]`: recomputes every hash of a saved
 * receipt offline. Exit 0 when all hold; 1 and the differing fields when not; 2 on usage or
 * unreadable input.
 */
import { readFile } from 'node:fs/promises';
import { verifyReceipt, type Receipt } from '../../core/receipt.js';
import type { JWK } from 'jose';
import { verifySignedResult, type Signature } from '../../eval/report-card/signing.js';
import type { Command } from './command.js';

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

export const receiptVerifyCommand: Command = {
  name: 'receipt',
  summary: 'verify a saved receipt by recomputing every hash',
  usage:
    'receipt verify <receipt.json|-> [--request <request-after-defaults.json>] [--keys <receipt-keys.json>]',
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
    if (receipt === null || typeof receipt !== 'object' || !('hashes' in receipt)) {
      process.stderr.write('not a receipt: no "hashes" object\n');
      return 1;
    }
    const mismatches = verifyReceipt(receipt as Receipt, request);
    if (mismatches.length === 0) {
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
