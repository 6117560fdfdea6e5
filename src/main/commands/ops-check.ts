/**
 * `ops check`: the seed's daily and weekly checks, one line each (or `--json`); the exit code
 * is the number of checks that failed. A check that cannot run (Redis down, no certificate) is
 * a failed check saying why, never a crash.
 */
import { parseArgs } from 'node:util';
import { createRedis } from '../../core/repositories/redis.js';
import { BullJobQueueRepository } from '../../music/repositories/job-queue-repository.js';
import { ConfigError } from '../../core/env.js';
import { offsiteTarget } from '../../ops/offsite-target.js';
import { offsiteDumps } from '../../ops/repositories/offsite-copy.js';
import {
  backupAgeCheck,
  certificateCheck,
  CHECK_THRESHOLDS,
  failedJobsCheck,
  type CheckResult,
} from '../../ops/checks.js';
import {
  certificateFromFile,
  certificateFromServer,
  diskFreeCheck,
  localBackupCheck,
} from '../../ops/repositories/check-probes.js';
import { opsConfig, type OpsIo } from './ops-io.js';

export const CHECK_USAGE =
  'ops check [--json] [--disk-path <dir>] [--min-free <0..1>] [--max-failed <n>] [--cert <file.pem> | --tls-host <host:port>] [--min-days <n>] [--backup-dir <dir>] [--max-backup-age <hours>]';

async function guarded(name: string, fn: () => Promise<CheckResult>): Promise<CheckResult> {
  try {
    return await fn();
  } catch (err) {
    return { name, ok: false, detail: `could not check: ${(err as Error).message}` };
  }
}

function number(text: string | undefined, fallback: number, ok: (n: number) => boolean): number | undefined {
  if (text === undefined) return fallback;
  const n = Number(text);
  return Number.isFinite(n) && ok(n) ? n : undefined;
}

export async function runCheck(argv: string[], io: OpsIo): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        json: { type: 'boolean', default: false },
        'disk-path': { type: 'string' },
        'min-free': { type: 'string' },
        'max-failed': { type: 'string' },
        cert: { type: 'string' },
        'tls-host': { type: 'string' },
        'min-days': { type: 'string' },
        'backup-dir': { type: 'string' },
        'max-backup-age': { type: 'string' },
      },
    }));
  } catch (err) {
    io.err(`ops check: ${(err as Error).message}\nusage: ${CHECK_USAGE}\n`);
    return 2;
  }
  const minFree = number(values['min-free'], CHECK_THRESHOLDS.minFreeDiskRatio, (n) => n >= 0 && n < 1);
  const maxFailed = number(
    values['max-failed'],
    CHECK_THRESHOLDS.maxFailedJobs,
    (n) => Number.isInteger(n) && n > 0,
  );
  const minDays = number(values['min-days'], CHECK_THRESHOLDS.minCertificateDays, (n) => n >= 0);
  const maxBackupAge = number(values['max-backup-age'], CHECK_THRESHOLDS.maxBackupAgeHours, (n) => n > 0);
  const hostPort = values['tls-host'] ? /^([^:\s]+):(\d{1,5})$/.exec(values['tls-host']) : undefined;
  if (
    minFree === undefined ||
    maxFailed === undefined ||
    minDays === undefined ||
    maxBackupAge === undefined ||
    (values['tls-host'] && !hostPort)
  ) {
    io.err(
      `ops check: --min-free is a ratio below 1, --max-failed a positive whole number, --min-days a number, --max-backup-age hours above 0, --tls-host host:port\nusage: ${CHECK_USAGE}\n`,
    );
    return 2;
  }
  const config = opsConfig(io, 'check');
  if (!config) return 2;
  const now = io.now();
  const results: CheckResult[] = [];
  results.push(await guarded('disk', () => diskFreeCheck(values['disk-path'] ?? config.dataDir, minFree)));
  results.push(
    await guarded('failed-jobs', async () => {
      const redis = createRedis(config.cacheUrl);
      try {
        // BullMQ waits for a connection without bound; a PING fails within the command timeout.
        await redis.ping();
      } catch (err) {
        redis.disconnect();
        throw err;
      }
      const queues = new BullJobQueueRepository(redis, { prefix: config.queuePrefix });
      try {
        const counts = await queues.counts();
        return failedJobsCheck(
          Object.fromEntries(Object.entries(counts).map(([q, c]) => [q, c.failed])),
          maxFailed,
        );
      } finally {
        await queues.close();
        redis.disconnect();
      }
    }),
  );
  results.push(
    await guarded('tls-certificate', async () => {
      const file = values.cert ?? config.tls?.certFile;
      if (file) return certificateCheck(await certificateFromFile(file), file, now, minDays);
      const [host, port] = hostPort ? [hostPort[1]!, Number(hostPort[2])] : [config.domain, 443];
      return certificateCheck(
        await certificateFromServer(host, port, config.domain),
        `${host}:${port}`,
        now,
        minDays,
      );
    }),
  );
  // Where `ops backup` writes (its --dir default): BACKUP_DIR, else ./backups.
  const backupDir = values['backup-dir'] ?? io.env.BACKUP_DIR ?? 'backups';
  results.push(await guarded('backup', () => localBackupCheck(backupDir, now, maxBackupAge)));
  // The copy off the host, when one is configured: a failing upload is an alert too.
  let target;
  try {
    target = offsiteTarget(io.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    results.push({ name: 'backup-offsite', ok: false, detail: err.problems.join('; ') });
  }
  if (target) {
    const t = target;
    const where = `${t.endpoint} bucket ${t.bucket}`;
    results.push(
      await guarded('backup-offsite', async () =>
        backupAgeCheck('backup-offsite', await offsiteDumps(t), where, now, maxBackupAge),
      ),
    );
  }
  const failed = results.filter((r) => !r.ok).length;
  if (values.json) io.out(`${JSON.stringify({ failed, checks: results })}\n`);
  else for (const r of results) io.out(`${r.ok ? 'ok  ' : 'FAIL'} ${r.name}: ${r.detail}\n`);
  return failed;
}
