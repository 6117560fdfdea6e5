/**
 * Password verification cost: logins per second per core before (scrypt N=2^15, r=8, p=1, the
 * earlier format) and after (Argon2id m=19 MiB, t=2, p=1, OWASP's first choice), with OWASP's
 * scrypt minimum (N=2^17) beside them for reference. One verification at a time, so one libuv
 * thread (one core) works; a login's other work (a database read, a token) is far cheaper.
 *
 *   npx tsx bench/passwords.ts      (writes bench/results/passwords.md)
 */
import { randomBytes, scrypt } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { decoyHash, hashPassword, verifyPassword } from '../src/music/services/passwords.js';

const RUNS = Number(process.env.BENCH_PASSWORD_RUNS ?? 15);
const PASSWORD = 'a long enough passphrase';

function scryptHash(log2N: number): Promise<string> {
  const salt = randomBytes(16);
  const N = 2 ** log2N;
  return new Promise((resolve, reject) =>
    scrypt(PASSWORD, salt, 32, { N, r: 8, p: 1, maxmem: 256 * N * 8 }, (err, key) =>
      err
        ? reject(err)
        : resolve(['scrypt', log2N, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$')),
    ),
  );
}

/** Median milliseconds of one verification, after two warm-up runs. */
async function medianVerifyMs(stored: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS + 2; i++) {
    const t0 = performance.now();
    if (!(await verifyPassword(PASSWORD, stored)) && stored !== (await decoyHash()))
      throw new Error('verification failed');
    if (i >= 2) times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const rows: [string, string][] = [
  ['scrypt N=2^15, r=8, p=1 (before; baseline)', await scryptHash(15)],
  ['Argon2id m=19456 KiB, t=2, p=1 (after)', await hashPassword(PASSWORD)],
  ['unknown-user decoy (Argon2id, after)', await decoyHash()],
  ['scrypt N=2^17, r=8, p=1 (OWASP scrypt minimum, for reference)', await scryptHash(17)],
];
const results: { name: string; ms: number }[] = [];
for (const [name, stored] of rows) results.push({ name, ms: await medianVerifyMs(stored) });
const baseline = results[0]!.ms;

const load = os.loadavg().map((l) => l.toFixed(1));
const md = [
  '## Passwords: logins per second per core',
  '',
  `One password verification at a time (one core), median of ${RUNS} after 2 warm-up runs, on Node ${process.version}. Command: \`npx tsx bench/passwords.ts\`. Machine: ${os.cpus().length} CPU(s), load average ${load.join(' / ')} at the end of the run (other work on a shared machine inflates every figure; the ratios less so).`,
  '',
  '| hash | ms per verify | logins/s per core | time ratio to scrypt 2^15 |',
  '| --- | ---: | ---: | ---: |',
  ...results.map(
    (r) =>
      `| ${r.name} | ${r.ms.toFixed(1)} | ${(1000 / r.ms).toFixed(1)} | ${(r.ms / baseline).toFixed(2)} |`,
  ),
  '',
].join('\n');
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/passwords.md', md);
process.stdout.write(md);
