/**
 * Hosts as Linux network namespaces on one machine: each host its own namespace (`vmc-<name>`),
 * its own address on 10.213.0.0/24, joined by a veth pair to one bridge (`vmc-br0`, which holds
 * .1 so the test process reaches every host). Everything carries the `vmc-` prefix, so a run
 * cleans what a killed run left before it starts.
 */
import { execFile, spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';

const exec = promisify(execFile);
const PREFIX = 'vmc-';
const BRIDGE = `${PREFIX}br0`;
export const SUBNET = '10.213.0';
export const GATEWAY = `${SUBNET}.1`;

/** The hosts of the cluster and their addresses. */
export const HOSTS = {
  data: `${SUBNET}.10`,
  lb: `${SUBNET}.20`,
  api1: `${SUBNET}.31`,
  api2: `${SUBNET}.32`,
  eval1: `${SUBNET}.41`,
  eval2: `${SUBNET}.42`,
  worker1: `${SUBNET}.51`,
  worker2: `${SUBNET}.52`,
  verify1: `${SUBNET}.61`,
  verify2: `${SUBNET}.62`,
} as const;
export type HostName = keyof typeof HOSTS;

/**
 * Addresses the test process's clients send from (on the bridge): listeners are many people,
 * and nginx's limits count per client address as the seed says.
 */
export const CLIENT_ADDRESSES = Array.from({ length: 150 }, (_, i) => `${SUBNET}.${100 + i}`);

const ip = (...args: string[]) => exec('ip', args);
const namespace = (host: HostName) => `${PREFIX}${host}`;

/** Removes every namespace, veth and bridge a run of this test left behind. */
export async function cleanNetwork(): Promise<void> {
  const { stdout } = await ip('netns', 'list');
  for (const line of stdout.split('\n')) {
    const name = line.split(' ')[0];
    if (name?.startsWith(PREFIX)) {
      // Processes still inside would keep the namespace's interfaces alive.
      const pids = await exec('ip', ['netns', 'pids', name]).then((r) =>
        r.stdout.split(/\s+/).filter(Boolean),
      );
      for (const pid of pids) {
        try {
          process.kill(Number(pid), 'SIGKILL');
        } catch {
          // already gone
        }
      }
      await ip('netns', 'del', name).catch(() => undefined);
    }
  }
  const links = (await ip('-o', 'link', 'show')).stdout;
  for (const match of links.matchAll(/^\d+: (vmc-[^:@]+)/gm))
    await ip('link', 'del', match[1]!).catch(() => undefined);
}

/** Makes the bridge and every host; the caller calls cleanNetwork() when done. */
export async function buildNetwork(): Promise<void> {
  await cleanNetwork();
  await ip('link', 'add', BRIDGE, 'type', 'bridge');
  await ip('addr', 'add', `${GATEWAY}/24`, 'dev', BRIDGE);
  for (const address of CLIENT_ADDRESSES) await ip('addr', 'add', `${address}/24`, 'dev', BRIDGE);
  await ip('link', 'set', BRIDGE, 'up');
  for (const [host, address] of Object.entries(HOSTS) as [HostName, string][]) {
    const ns = namespace(host);
    await ip('netns', 'add', ns);
    await ip('link', 'add', `${PREFIX}${host}`, 'type', 'veth', 'peer', 'name', 'eth0', 'netns', ns);
    await ip('link', 'set', `${PREFIX}${host}`, 'master', BRIDGE);
    await ip('link', 'set', `${PREFIX}${host}`, 'up');
    await ip('-n', ns, 'addr', 'add', `${address}/24`, 'dev', 'eth0');
    await ip('-n', ns, 'link', 'set', 'eth0', 'up');
    await ip('-n', ns, 'link', 'set', 'lo', 'up');
  }
}

/** Cuts a host off (its end of the veth down) or joins it again. */
export async function setHostLink(host: HostName, up: boolean): Promise<void> {
  await ip('-n', namespace(host), 'link', 'set', 'eth0', up ? 'up' : 'down');
}

/** A process started inside a host's namespace. */
export function spawnOn(
  host: HostName,
  command: string,
  args: string[],
  options: SpawnOptions,
): ChildProcess {
  return spawn('ip', ['netns', 'exec', namespace(host), command, ...args], options);
}

/** Every process in a host's namespace, killed with SIGKILL (the host dies). */
export async function killHost(host: HostName): Promise<number> {
  const { stdout } = await exec('ip', ['netns', 'pids', namespace(host)]);
  const pids = stdout.split(/\s+/).filter(Boolean).map(Number);
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  return pids.length;
}

/** The command names of the processes running on a host (from /proc). */
export async function commandsOn(host: HostName): Promise<string[]> {
  const { stdout } = await exec('ip', ['netns', 'pids', namespace(host)]);
  const names = await Promise.all(
    stdout
      .split(/\s+/)
      .filter(Boolean)
      .map((pid) => readFile(`/proc/${pid}/comm`, 'utf8').catch(() => '')),
  );
  return names.map((n) => n.trim()).filter(Boolean);
}

/** CPU seconds used so far by the processes on a host, by command name (from /proc/<pid>/stat). */
export async function cpuOn(host: HostName): Promise<Map<string, number>> {
  const { stdout } = await exec('ip', ['netns', 'pids', namespace(host)]);
  const out = new Map<string, number>();
  for (const pid of stdout.split(/\s+/).filter(Boolean)) {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
    const close = stat.lastIndexOf(')');
    if (close < 0) continue;
    const name = stat.slice(stat.indexOf('(') + 1, close);
    const fields = stat.slice(close + 2).split(' ');
    // utime and stime (fields 14 and 15 of the line; 12 and 13 after the command) in clock ticks.
    const seconds = (Number(fields[11]) + Number(fields[12])) / 100;
    out.set(name, (out.get(name) ?? 0) + seconds);
  }
  return out;
}
