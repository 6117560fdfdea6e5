/**
 * The seed's operational checks: disk free above 20% (daily), failed jobs below 10 (daily), TLS
 * certificate valid for more than 30 days (weekly), and the last good database backup younger
 * than the RPO (24 h), so a backup that fails is an alert and not a line in a log. Each check is a function returning one
 * result; the command prints one line per result and exits with the number that failed. What
 * they read from disk and the network: repositories/check-probes.ts.
 */
import type { X509Certificate } from 'node:crypto';
import { parseBackupFileName } from './retention.js';

export interface CheckResult {
  name: string;
  ok: boolean;
  detail: string;
}

export const CHECK_THRESHOLDS = {
  minFreeDiskRatio: 0.2,
  maxFailedJobs: 10,
  minCertificateDays: 30,
  /** The seed's RPO: the newest database dump may be at most this old. */
  maxBackupAgeHours: 24,
};

/** The age of the newest complete database dump among `names` (its UTC stamp) against the RPO. */
export function backupAgeCheck(
  name: string,
  names: readonly string[],
  where: string,
  now: Date,
  maxAgeHours: number,
): CheckResult {
  const newest = names
    .map((file) => ({ file, parsed: parseBackupFileName(file) }))
    .filter((f) => f.parsed?.kind === 'db')
    .sort((a, b) => b.parsed!.date.getTime() - a.parsed!.date.getTime())[0];
  if (!newest)
    return { name, ok: false, detail: `no database backup in ${where} (needs one within ${maxAgeHours} h)` };
  const hours = (now.getTime() - newest.parsed!.date.getTime()) / 3_600_000;
  return {
    name,
    ok: hours <= maxAgeHours,
    detail: `last good database backup ${newest.file} in ${where}, ${hours.toFixed(1)} h old (needs at most ${maxAgeHours} h)`,
  };
}

export function failedJobsCheck(
  failedByQueue: Readonly<Record<string, number>>,
  maxFailed: number,
): CheckResult {
  const total = Object.values(failedByQueue).reduce((a, b) => a + b, 0);
  const worst = Object.entries(failedByQueue)
    .filter(([, n]) => n > 0)
    .map(([q, n]) => `${q} ${n}`)
    .join(', ');
  return {
    name: 'failed-jobs',
    ok: total < maxFailed,
    detail: `${total} failed job${total === 1 ? '' : 's'}${worst ? ` (${worst})` : ''} (needs fewer than ${maxFailed})`,
  };
}

export function certificateCheck(
  cert: X509Certificate,
  source: string,
  now: Date,
  minDays: number,
): CheckResult {
  const notAfter = new Date(cert.validTo);
  const days = (notAfter.getTime() - now.getTime()) / 86_400_000;
  const when = notAfter.toISOString();
  return {
    name: 'tls-certificate',
    ok: days > minDays,
    detail:
      days < 0
        ? `${source}: expired on ${when}`
        : `${source}: valid ${Math.floor(days)} more days, until ${when} (needs more than ${minDays})`,
  };
}
