/**
 * Logs gate on two Inspect AI .eval files of BENCH_SAMPLES samples x 3 epochs (default 5000:
 * about 200 MB of JSON unzipped per file) with realistic messages, read and gated, beside the
 * floor measured in the same run: `unzip -p` of the same files into JSON.parse per member.
 * Each side runs in its own process so its peak RSS is its own. Target: <= 1.5x the floor,
 * peak memory < 300 MB.
 *
 *   npx tsx bench/harness-logs.ts      (writes bench/results/harness-logs.md)
 */
import { spawn, spawnSync } from 'node:child_process';
import {
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { strToU8, Zip, ZipDeflate } from 'fflate';
import { gateLogs, parseLogsGateOptions } from '../src/eval/harness-logs/logs-gate-receipt.js';
import { fileInput } from '../src/eval/repositories/log-files.js';
import { lcg } from '../src/eval/math/lcg.testing.js';

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 5000);
const EPOCHS = 3;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const WORDS =
  'the model answers each question step by step and then checks its arithmetic before giving a final answer in the required format with units'.split(
    ' ',
  );

function text(rand: () => number, words: number): string {
  const out: string[] = [];
  for (let i = 0; i < words; i++) out.push(WORDS[Math.floor(rand() * WORDS.length)]!);
  return out.join(' ');
}

async function writeEval(file: string, seed: number, passRate: number): Promise<void> {
  const rand = lcg(seed);
  const out = createWriteStream(file);
  const zip = new Zip((err, chunk) => {
    if (err) throw err;
    out.write(chunk);
  });
  const add = (name: string, value: unknown): void => {
    const f = new ZipDeflate(name, { level: 6 });
    zip.add(f);
    f.push(strToU8(JSON.stringify(value)), true);
  };
  const spec = { task: 'bench', model: `m${seed}`, packages: { inspect_ai: '0.3.140' } };
  add('_journal/start.json', { version: 2, eval: spec, plan: {} });
  for (let s = 0; s < SAMPLES; s++) {
    const question = text(lcg(s + 1), 60);
    for (let e = 1; e <= EPOCHS; e++) {
      const messages = Array.from({ length: 8 }, (_, i) => ({
        role: i % 2 ? 'assistant' : 'user',
        content: text(rand, 250),
        source: 'generate',
      }));
      add(`samples/${s}_epoch_${e}.json`, {
        id: s,
        epoch: e,
        input: question,
        target: '42',
        messages,
        output: { model: spec.model, choices: [{ message: messages[7] }] },
        scores: { match: { value: rand() < passRate ? 'C' : 'I', answer: '42' } },
        metadata: {},
        events: [],
      });
      if (out.writableNeedDrain) await new Promise<void>((r) => out.once('drain', () => r()));
    }
  }
  add('header.json', { version: 2, status: 'success', eval: spec, results: {} });
  zip.end();
  await new Promise<void>((r) => out.end(() => r()));
}

async function child(mode: string, files: string[]): Promise<void> {
  const t0 = performance.now();
  if (mode === 'ours') {
    const sealed = await gateLogs(
      await fileInput(files[0]!),
      await fileInput(files[1]!),
      parseLogsGateOptions({}),
    );
    process.stderr.write(`verdict ${sealed.verdict}\n`);
  } else {
    for (const file of files) {
      // Member sizes in archive order, then one unzip -p stream split at those sizes.
      const list = spawnSync('unzip', ['-Zl', file], { encoding: 'utf8', maxBuffer: 1 << 28 }).stdout;
      const sizes = list
        .split('\n')
        .map((l) => l.trim().split(/\s+/))
        .filter((f) => f.length >= 10 && f[f.length - 1]!.startsWith('samples/'))
        .map((f) => Number(f[3]));
      const proc = spawn('unzip', ['-p', file, 'samples/*']);
      let pending: Buffer = Buffer.alloc(0);
      let i = 0;
      let parsed = 0;
      for await (const chunk of proc.stdout) {
        pending = pending.length ? Buffer.concat([pending, chunk as Buffer]) : (chunk as Buffer);
        while (i < sizes.length && pending.length >= sizes[i]!) {
          JSON.parse(pending.subarray(0, sizes[i]).toString('utf8'));
          pending = pending.subarray(sizes[i]);
          i++;
          parsed++;
        }
      }
      if (parsed !== sizes.length) throw new Error(`parsed ${parsed} of ${sizes.length} members`);
    }
  }
  const ms = performance.now() - t0;
  process.stdout.write(JSON.stringify({ ms, maxRssMB: process.resourceUsage().maxRSS / 1024 }));
}

interface Figures {
  ms: number;
  cpuMs: number;
  maxRssMB: number;
}

/** CPU time of waited-for children (the child process and its unzip), from /proc/self/stat. */
function childrenCpuMs(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 16 and 17 of stat(5) (cutime, cstime), counted after the ")" of field 2.
  return ((Number(fields[13]) + Number(fields[14])) * 1000) / CLOCK_TICKS;
}

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

function measure(mode: string, files: string[]): Figures {
  const cpu0 = childrenCpuMs();
  const r = spawnSync(
    process.execPath,
    ['--import', 'tsx', 'bench/harness-logs.ts', '--child', mode, ...files],
    {
      encoding: 'utf8',
      maxBuffer: 1 << 20,
    },
  );
  if (r.status !== 0) throw new Error(`${mode} failed: ${r.stderr}`);
  const out = JSON.parse(r.stdout) as { ms: number; maxRssMB: number };
  return { ...out, cpuMs: childrenCpuMs() - cpu0 };
}

const sum = (xs: Figures[], k: keyof Figures): number => xs.reduce((a, x) => a + x[k], 0);

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bench-logs-'));
  const files = [path.join(dir, 'base.eval'), path.join(dir, 'cand.eval')];
  await writeEval(files[0]!, 1, 0.6);
  await writeEval(files[1]!, 2, 0.65);
  const unzipped = spawnSync('unzip', ['-Zt', files[0]!], { encoding: 'utf8' }).stdout.trim();
  const zipped = files.map((f) => (statSync(f).size / 2 ** 20).toFixed(0)).join(' + ');
  // Alternating rounds, so that a change of load hits both sides alike.
  const floors: Figures[] = [];
  const ours: Figures[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    floors.push(measure('floor', files));
    ours.push(measure('ours', files));
    process.stderr.write(`round ${round + 1}/${ROUNDS} done\n`);
  }
  rmSync(dir, { recursive: true, force: true });
  const cpuRatio = sum(ours, 'cpuMs') / sum(floors, 'cpuMs');
  const wallRatio = sum(ours, 'ms') / sum(floors, 'ms');
  const peak = Math.max(...ours.map((o) => o.maxRssMB));
  const row = (label: string, xs: Figures[]): string =>
    `| ${label} | ${xs.map((x) => x.cpuMs.toFixed(0)).join(', ')} | ${xs.map((x) => x.ms.toFixed(0)).join(', ')} | ${Math.max(...xs.map((x) => x.maxRssMB)).toFixed(0)} |`;
  const md = [
    '## Logs gate on Inspect .eval files',
    '',
    `${SAMPLES} samples x ${EPOCHS} epochs per file, two files (${zipped} MB zipped; first file: ${unzipped}).`,
    `${ROUNDS} alternating round(s); load average at the end: ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(', ')} on ${os.cpus().length} CPUs.`,
    '',
    '| | CPU time (ms, per round) | wall time (ms, per round) | peak RSS (MB) |',
    '|---|---|---|---|',
    row('floor: unzip -p + JSON.parse per member', floors),
    row('read and gate (streamed zip, native inflate, readers, join, test, seal)', ours),
    '',
    `Ratio to the floor: CPU time ${cpuRatio.toFixed(2)}x, wall time ${wallRatio.toFixed(2)}x (target <= 1.5x); peak RSS ${peak.toFixed(0)} MB (target < 300 MB).`,
  ].join('\n');
  mkdirSync('bench/results', { recursive: true });
  writeFileSync('bench/results/harness-logs.md', md + '\n');
  process.stdout.write(md + '\n');
}

const at = process.argv.indexOf('--child');
if (at >= 0) await child(process.argv[at + 1]!, process.argv.slice(at + 2));
else await main();
