/** The cluster's processes: each started in its host's namespace, its output kept for failures. */
import type { ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { spawnOn, type HostName } from './netns.js';

export interface HostProcess {
  host: HostName;
  name: string;
  child: ChildProcess;
  lines: string[];
  exited: Promise<number | string>;
}

export function startOn(
  host: HostName,
  name: string,
  command: string,
  args: string[],
  env: Record<string, string>,
  cwd: string,
): HostProcess {
  const child = spawnOn(host, command, args, {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const keep = (line: string): void => {
    lines.push(line);
    if (lines.length > 400) lines.shift();
  };
  createInterface({ input: child.stdout! }).on('line', keep);
  createInterface({ input: child.stderr! }).on('line', keep);
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  return { host, name, child, lines, exited };
}

/** Polls `probe` until it is true; fails naming `what` with the process's last lines. */
export async function until(
  what: string | (() => string),
  seconds: number,
  probe: () => Promise<boolean>,
  p?: HostProcess,
): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    const named = typeof what === 'string' ? what : what();
    if (p && (p.child.exitCode !== null || p.child.signalCode !== null))
      throw new Error(`${p.name} on ${p.host} exited while ${named}:\n${p.lines.slice(-40).join('\n')}`);
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline)
      throw new Error(`${named}: not after ${seconds} s${p ? `:\n${p.lines.slice(-40).join('\n')}` : ''}`);
    await sleep(200);
  }
}

export const answersOk = async (url: string): Promise<boolean> =>
  (await fetch(url, { signal: AbortSignal.timeout(3000) })).ok;

export async function stopProcess(
  p: HostProcess,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<number | string> {
  if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill(signal);
  return p.exited;
}
