/**
 * The pipeline tests' view of BullMQ for one test app: a Redis connection for BullMQ, the
 * QueueEvents of the queues a test watches (ready before it returns), the flow starter, and
 * waits for a job's outcome or progress that remove their listeners once settled.
 */
import { Queue, QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { BullVersionFlowStarter } from '../../src/music/repositories/version-flow.js';
import { versionJobId, type QueueName } from '../../src/music/jobs/queues.js';
import type { MusicConfig } from '../../src/music/config.js';

export interface JobSnapshot {
  state: string;
  attemptsMade: number;
  attemptsStarted: number;
}

export interface FlowEvents {
  /** ioredis with maxRetriesPerRequest: null, as BullMQ needs. */
  bull: Redis;
  starter: BullVersionFlowStarter;
  /** 'completed', or `failed: <reason>`, when the job next ends. */
  outcome(queue: QueueName, jobId: string): Promise<string>;
  /** Resolves when the job completes; rejects with its reason if it fails. */
  completed(queue: QueueName, jobId: string): Promise<void>;
  /** The version's flow parent completed (the version is ready). */
  finalized(versionId: string): Promise<void>;
  /** The job's next progress report. */
  progressed(queue: QueueName, jobId: string): Promise<void>;
  /** The job's state and attempts now; undefined when there is no such job. */
  inspect(queue: QueueName, jobId: string): Promise<JobSnapshot | undefined>;
  close(): Promise<void>;
}

export async function openFlowEvents(
  config: MusicConfig,
  watched: readonly QueueName[] = ['version-finalize'],
): Promise<FlowEvents> {
  const prefix = config.queuePrefix;
  const bull = new Redis(config.cacheUrl, { maxRetriesPerRequest: null });
  // Each QueueEvents gets its own connection (it blocks on XREAD); closed in close().
  const connections = watched.map(() => bull.duplicate());
  const events = new Map(
    watched.map((name, i) => [name, new QueueEvents(name, { connection: connections[i]!, prefix })]),
  );
  await Promise.all([...events.values()].map((e) => e.waitUntilReady()));
  const starter = new BullVersionFlowStarter(bull, { prefix });
  const of = (queue: QueueName): QueueEvents => {
    const e = events.get(queue);
    if (!e) throw new Error(`${queue} is not watched: pass it to openFlowEvents`);
    return e;
  };

  const outcome = (queue: QueueName, jobId: string): Promise<string> =>
    new Promise((resolve) => {
      const e = of(queue);
      const done = (result: string): void => {
        e.off('completed', onCompleted);
        e.off('failed', onFailed);
        resolve(result);
      };
      const onCompleted = ({ jobId: id }: { jobId: string }): void => {
        if (id === jobId) done('completed');
      };
      const onFailed = ({ jobId: id, failedReason }: { jobId: string; failedReason: string }): void => {
        if (id === jobId) done(`failed: ${failedReason}`);
      };
      e.on('completed', onCompleted);
      e.on('failed', onFailed);
    });

  const completed = async (queue: QueueName, jobId: string): Promise<void> => {
    const result = await outcome(queue, jobId);
    if (result !== 'completed') throw new Error(`${queue} ${jobId} ${result}`);
  };

  const progressed = (queue: QueueName, jobId: string): Promise<void> =>
    new Promise((resolve) => {
      const e = of(queue);
      const on = ({ jobId: id }: { jobId: string }): void => {
        if (id !== jobId) return;
        e.off('progress', on);
        resolve();
      };
      e.on('progress', on);
    });

  const queues = new Map<QueueName, Queue>();
  const inspect = async (queue: QueueName, jobId: string): Promise<JobSnapshot | undefined> => {
    let q = queues.get(queue);
    if (!q) queues.set(queue, (q = new Queue(queue, { connection: bull, prefix })));
    const job = await q.getJob(jobId);
    if (!job) return undefined;
    return {
      state: await job.getState(),
      attemptsMade: job.attemptsMade,
      attemptsStarted: job.attemptsStarted,
    };
  };

  return {
    bull,
    starter,
    outcome,
    completed,
    finalized: (versionId) => completed('version-finalize', versionJobId('version-finalize', versionId)),
    progressed,
    inspect,
    close: async () => {
      await Promise.all([...events.values(), ...queues.values()].map((e) => e.close()));
      // QueueEvents leaves a connection it was given open.
      for (const c of connections) c.disconnect();
      await starter.close();
      bull.disconnect();
    },
  };
}
