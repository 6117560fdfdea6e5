/** What `ops check` reads from the machine: a backup folder, free disk space, a certificate from a file or a live server. */
import { X509Certificate } from 'node:crypto';
import { readdir, readFile, statfs } from 'node:fs/promises';
import { connect } from 'node:tls';
import { backupAgeCheck, type CheckResult } from '../checks.js';

/** The newest dump in a backup directory. */
export async function localBackupCheck(dir: string, now: Date, maxAgeHours: number): Promise<CheckResult> {
  return backupAgeCheck('backup', await readdir(dir), dir, now, maxAgeHours);
}

export async function diskFreeCheck(path: string, minFreeRatio: number): Promise<CheckResult> {
  const s = await statfs(path);
  // bavail: blocks an unprivileged process may still use (what the services will see).
  const ratio = s.blocks > 0 ? s.bavail / s.blocks : 0;
  const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
  return {
    name: 'disk',
    ok: ratio > minFreeRatio,
    detail: `${pct(ratio)} free on ${path} (needs more than ${pct(minFreeRatio)})`,
  };
}

export async function certificateFromFile(path: string): Promise<X509Certificate> {
  return new X509Certificate(await readFile(path));
}

/** The certificate a live server presents (not verified: an expired one must still be read). */
export function certificateFromServer(
  host: string,
  port: number,
  servername = host,
): Promise<X509Certificate> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port, servername, rejectUnauthorized: false, timeout: 10_000 });
    socket.once('secureConnect', () => {
      const peer = socket.getPeerX509Certificate();
      socket.destroy();
      if (peer) resolve(peer);
      else reject(new Error(`${host}:${port} presented no certificate`));
    });
    socket.once('timeout', () => socket.destroy(new Error(`${host}:${port}: TLS handshake timed out`)));
    socket.once('error', reject);
  });
}
