/** The music app beside an SMTP sink and the real music-worker process that sends its `mail` queue. */
import { Redis } from 'ioredis';
import { createMusicTestApp, type MusicTestApp } from './music-app.js';
import { startWorkerProcess, stopWorkerProcess, type WorkerProcess } from './music-worker.js';
import { startSmtpSink, type SmtpSink } from './smtp-sink.js';

/** The origin mailed links open. */
export const MAIL_PUBLIC_URL = 'http://music.test:8081';

export interface MailFixture {
  sink: SmtpSink;
  t: MusicTestApp;
  worker: WorkerProcess;
  /** The app's environment, mail settings included (for a second API host like it). */
  env: Record<string, string>;
  /** A Redis connection for the test's own BullMQ clients (close them before `close`). */
  redis: Redis;
  close(): Promise<void>;
}

export async function openMailFixture(
  env: Record<string, string>,
  options: Parameters<typeof createMusicTestApp>[1] = {},
): Promise<MailFixture> {
  const sink = await startSmtpSink();
  const mailEnv = {
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(sink.port),
    MAIL_FROM: 'Music Test <no-reply@music.test>',
    PUBLIC_URL: MAIL_PUBLIC_URL,
  };
  const appEnv = { ...env, ...mailEnv };
  const t = await createMusicTestApp(appEnv, options);
  const redis = new Redis(t.config.cacheUrl, { maxRetriesPerRequest: null });
  // No PUBLIC_URL for the worker: each mail names the host of the API that queued it, as its links do.
  const { PUBLIC_URL: _api, ...workerEnv } = mailEnv;
  const worker = await startWorkerProcess(t.config, workerEnv);
  return {
    sink,
    t,
    worker,
    env: appEnv,
    redis,
    close: async () => {
      await stopWorkerProcess(worker);
      redis.disconnect();
      await t.close();
      await sink.close();
    },
  };
}
