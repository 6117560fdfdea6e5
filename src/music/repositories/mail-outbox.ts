/**
 * The `mail` BullMQ queue seen from music-api: messages enqueued (the music-worker sends them)
 * and the failed ones listed for an administrator, with the reason. A sent message's job is
 * removed at once (its data may carry a link's token); a failed one is kept a week.
 */
import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { BORROWED_CONNECTION_OPTIONS, closeBorrowed } from './borrowed-connection.js';
import type { MailJobData, MailKind, QueueNaming } from '../jobs/queues.js';
import { queuesUnavailable } from '../errors/database.js';

export interface FailedMail {
  id: string;
  kind: MailKind;
  to: string;
  /** Why it failed for good (the SMTP server's reply, or the last transient failure). */
  reason: string;
  attempts: number;
  failed_at: string | null;
}

export interface MailOutbox {
  enqueue(message: MailJobData): Promise<void>;
  failed(limit: number): Promise<FailedMail[]>;
  close(): Promise<void>;
}

export interface MailRetryOptions {
  attempts: number;
  /** First retry after this, doubling each time (BullMQ exponential backoff). */
  delayMs: number;
}

/** Six tries over about 30 minutes: a mail server's short outage passes unnoticed. */
export const DEFAULT_MAIL_RETRY: MailRetryOptions = { attempts: 6, delayMs: 60_000 };

export class BullMailOutbox implements MailOutbox {
  private readonly queue: Queue;
  private readonly jobOptions: JobsOptions;
  private readonly site: string;

  constructor(
    private readonly connection: Redis,
    naming: QueueNaming,
    /** PUBLIC_URL: its host names the site in every message queued here. */
    publicUrl: string,
    retry: MailRetryOptions = DEFAULT_MAIL_RETRY,
  ) {
    this.site = new URL(publicUrl).hostname;
    this.queue = new Queue('mail', { connection, prefix: naming.prefix, ...BORROWED_CONNECTION_OPTIONS });
    this.queue.on('error', () => undefined);
    this.jobOptions = {
      attempts: retry.attempts,
      backoff: { type: 'exponential', delay: retry.delayMs },
      removeOnComplete: true,
      removeOnFail: { age: 7 * 24 * 3600, count: 1000 },
    };
  }

  async enqueue(message: MailJobData): Promise<void> {
    try {
      await this.queue.add(message.kind, { ...message, site: this.site }, this.jobOptions);
    } catch (err) {
      throw queuesUnavailable(err);
    }
  }

  async failed(limit: number): Promise<FailedMail[]> {
    let jobs;
    try {
      jobs = await this.queue.getJobs(['failed'], 0, limit - 1, false);
    } catch (err) {
      throw queuesUnavailable(err);
    }
    return jobs.flatMap((job) => {
      if (job.id === undefined) return [];
      const data = job.data as MailJobData;
      return [
        {
          id: job.id,
          kind: data.kind,
          to: data.to,
          reason: job.failedReason,
          attempts: job.attemptsMade,
          failed_at: job.finishedOn !== undefined ? new Date(job.finishedOn).toISOString() : null,
        },
      ];
    });
  }

  close(): Promise<void> {
    return closeBorrowed([this.queue], this.connection);
  }
}
