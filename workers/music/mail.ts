/**
 * The `mail` queue's processor: renders the kind's template and sends it over SMTP. A failure
 * that may pass (4xx, connection) is thrown for BullMQ to retry with backoff; a permanent refusal
 * (5xx), a job the templates cannot render or a worker without SMTP settings fails the job at
 * once (UnrecoverableError), its reason kept for GET /api/v1/admin/mail/failed.
 */
import { UnrecoverableError } from 'bullmq';
import type { JobProcessor } from './job-processor.js';
import { MailDataError, renderMail } from '../../src/music/mail/render.js';
import { MailSendError, type MailTransport } from '../../src/music/repositories/smtp-transport.js';

export interface MailDeps {
  /** Undefined when SMTP_HOST is not set. */
  transport: MailTransport | undefined;
  from: string;
  /** PUBLIC_URL: its host names the site in mails and Message-IDs of jobs that do not carry one. */
  publicUrl: string;
}

export function mailProcessor(deps: MailDeps): JobProcessor<'mail'> {
  const ownHost = new URL(deps.publicUrl).hostname;
  return async (job) => {
    // The API's host, which the links name, even when this worker's PUBLIC_URL differs or is unset.
    const host = job.data.site ?? ownHost;
    if (!deps.transport)
      throw new UnrecoverableError(
        'the music-worker has no SMTP settings (SMTP_HOST): the message cannot be sent',
      );
    let rendered;
    try {
      rendered = renderMail(job.data, { siteName: host });
    } catch (err) {
      if (err instanceof MailDataError)
        throw new UnrecoverableError(`the mail job is malformed: ${err.message}`);
      throw err;
    }
    try {
      await deps.transport.send({
        from: deps.from,
        to: job.data.to,
        ...rendered,
        messageId: `<${job.data.kind}.${job.id ?? 'job'}@${host}>`,
      });
    } catch (err) {
      if (err instanceof MailSendError && err.permanent) throw new UnrecoverableError(err.message);
      throw err;
    }
    return { sent: job.data.kind };
  };
}
