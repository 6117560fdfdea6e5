/**
 * The `data` host: a PostgreSQL 15 cluster of its own (initdb + postgres as the postgres user,
 * its own data directory), a redis-server with append-only persistence, and the S3-protocol
 * server the tests use, each listening on the host's address only. Restartable for the faults.
 */
import { execFile } from 'node:child_process';
import { chown, mkdir, appendFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { Redis } from 'ioredis';
import { HOSTS, SUBNET } from './netns.js';
import { startOn, stopProcess, until, type HostProcess } from './processes.js';

const exec = promisify(execFile);
const PG_BIN = '/usr/lib/postgresql/15/bin';
export const PG_PORT = 5432;
export const REDIS_PORT = 6379;
export const S3_PORT = 4569;
export const DATABASE_SERVER = `postgresql://postgres@${HOSTS.data}:${PG_PORT}`;
export const REDIS_URL = `redis://${HOSTS.data}:${REDIS_PORT}`;
export const S3_ENDPOINT = `http://${HOSTS.data}:${S3_PORT}`;

async function postgresIds(): Promise<{ uid: number; gid: number }> {
  const [uid, gid] = await Promise.all([exec('id', ['-u', 'postgres']), exec('id', ['-g', 'postgres'])]);
  return { uid: Number(uid.stdout), gid: Number(gid.stdout) };
}

export class DataHost {
  postgres?: HostProcess;
  redis?: HostProcess;
  s3?: HostProcess;
  constructor(
    private readonly dir: string,
    private readonly root: string,
  ) {}

  async init(): Promise<void> {
    const pgData = join(this.dir, 'pg');
    await mkdir(pgData, { recursive: true });
    const { uid, gid } = await postgresIds();
    await chown(this.dir, uid, gid);
    await chown(pgData, uid, gid);
    await exec('setpriv', [
      ...['--reuid', String(uid), '--regid', String(gid), '--clear-groups'],
      ...[`${PG_BIN}/initdb`, '-D', pgData, '-A', 'trust', '-U', 'postgres', '--no-sync'],
    ]);
    await appendFile(join(pgData, 'pg_hba.conf'), `host all all ${SUBNET}.0/24 trust\n`);
    await mkdir(join(this.dir, 'redis'));
    await mkdir(join(this.dir, 's3'));
    await Promise.all([this.startPostgres(), this.startRedis(), this.startS3()]);
  }

  async startPostgres(): Promise<void> {
    const { uid, gid } = await postgresIds();
    const pgData = join(this.dir, 'pg');
    this.postgres = startOn(
      'data',
      'postgres',
      'setpriv',
      [
        ...['--reuid', String(uid), '--regid', String(gid), '--clear-groups'],
        ...[`${PG_BIN}/postgres`, '-D', pgData, '-p', String(PG_PORT), '-k', pgData],
        ...['-c', `listen_addresses=${HOSTS.data}`, '-c', 'max_connections=400'],
      ],
      {},
      this.root,
    );
    await until(
      'PostgreSQL accepts connections',
      60,
      () => this.query('SELECT 1').then(() => true),
      this.postgres,
    );
  }

  /** Fast shutdown (SIGINT: connections cut, a clean checkpoint), as a restart by an operator. */
  async stopPostgres(): Promise<void> {
    if (this.postgres) await stopProcess(this.postgres, 'SIGINT');
  }

  async startRedis(): Promise<void> {
    this.redis = startOn(
      'data',
      'redis',
      'redis-server',
      [
        ...['--bind', HOSTS.data, '--port', String(REDIS_PORT), '--protected-mode', 'no'],
        ...['--dir', join(this.dir, 'redis'), '--appendonly', 'yes', '--save', ''],
      ],
      {},
      this.root,
    );
    await until(
      'Redis answers PING',
      30,
      async () => {
        const redis = new Redis(REDIS_URL, {
          lazyConnect: true,
          maxRetriesPerRequest: 0,
          retryStrategy: () => null,
        });
        redis.on('error', () => undefined);
        try {
          await redis.connect();
          return (await redis.ping()) === 'PONG';
        } finally {
          redis.disconnect();
        }
      },
      this.redis,
    );
  }

  /** SIGTERM: redis-server fsyncs its append-only file and exits, as `systemctl restart` does. */
  async stopRedis(): Promise<void> {
    if (this.redis) await stopProcess(this.redis);
  }

  async startS3(): Promise<void> {
    this.s3 = startOn(
      'data',
      's3rver',
      process.execPath,
      [
        '--import',
        'tsx',
        join(this.root, 'test/cluster/s3rver-host.ts'),
        join(this.dir, 's3'),
        HOSTS.data,
        String(S3_PORT),
      ],
      {},
      this.root,
    );
    await until(
      's3rver listens',
      60,
      () => Promise.resolve(this.s3!.lines.includes('s3rver ready')),
      this.s3,
    );
  }

  async query<T extends pg.QueryResultRow>(
    sql: string,
    database = 'postgres',
    params: unknown[] = [],
  ): Promise<T[]> {
    const client = new pg.Client({ connectionString: `${DATABASE_SERVER}/${database}` });
    await client.connect();
    try {
      return (await client.query<T>(sql, params)).rows;
    } finally {
      await client.end();
    }
  }

  async stop(): Promise<void> {
    await Promise.all(
      [this.s3, this.redis, this.postgres].map((p) =>
        p ? stopProcess(p, p === this.postgres ? 'SIGINT' : 'SIGTERM') : Promise.resolve(0),
      ),
    );
  }
}
