/**
 * A service entry under src/main started as a real process (through tsx), its log lines
 * collected, resolved once it logs its ready line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');

export interface LoggedProcess {
  child: ChildProcess;
  /** The line that matched `ready`. */
  readyLine: string;
  /** Resolves with the exit code (or signal name) when the process ends. */
  exited: Promise<number | string>;
  /** Every log line seen so far. */
  lines: string[];
  /** The next log line (from now on) that matches. */
  nextLine: (match: (line: string) => boolean) => Promise<string>;
}

/** Spawns src/main/<entry>.ts with exactly `env` (plus PATH), resolving at its ready line. */
export async function startLoggedProcess(
  entry: string,
  env: Record<string, string>,
  ready: (line: string) => boolean,
): Promise<LoggedProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'src', 'main', `${entry}.ts`)], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  const lines: string[] = [];
  const watchers = new Set<(line: string) => void>();
  const readyLine = await new Promise<string>((resolve, reject) => {
    const onLine = (line: string): void => {
      lines.push(line);
      for (const w of watchers) w(line);
      if (ready(line)) resolve(line);
    };
    createInterface({ input: child.stdout }).on('line', onLine);
    createInterface({ input: child.stderr }).on('line', onLine);
    void exited.then((code) =>
      reject(new Error(`${entry} exited (${code}) before ready:\n${lines.join('\n')}`)),
    );
  });
  const nextLine = (match: (line: string) => boolean): Promise<string> =>
    new Promise((resolve) => {
      const watcher = (line: string): void => {
        if (!match(line)) return;
        watchers.delete(watcher);
        resolve(line);
      };
      watchers.add(watcher);
    });
  return { child, readyLine, exited, lines, nextLine };
}

/** SIGTERM (or the given signal) and the exit code. */
export async function stopLoggedProcess(
  p: Pick<LoggedProcess, 'child' | 'exited'>,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<number | string> {
  if (p.child.exitCode === null && p.child.signalCode === null) p.child.kill(signal);
  return p.exited;
}
