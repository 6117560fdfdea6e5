/**
 * Outgoing mail over SMTP (nodemailer), with the seed's SMTP_* settings. A send either succeeds
 * or fails with a MailSendError saying whether the server refused for good (a 5xx reply: the
 * job is not retried) or the failure may pass (4xx, connection, timeout: retried).
 */
import nodemailer, { type Transporter } from 'nodemailer';

export interface SmtpSettings {
  host: string;
  port: number;
  user: string | undefined;
  pass: string | undefined;
}

export interface OutgoingMail {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Kept the same across retries, so a receiver can tell a resent message from a new one. */
  messageId: string;
}

export class MailSendError extends Error {
  constructor(
    message: string,
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = 'MailSendError';
  }
}

export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

interface NodemailerFailure {
  message?: string;
  code?: string;
  responseCode?: number;
  response?: string;
}

/** What the admin sees: the server's reply (never the credentials, which nodemailer does not echo). */
export function classifySmtpFailure(err: unknown): MailSendError {
  const e = (err ?? {}) as NodemailerFailure;
  const code = typeof e.responseCode === 'number' ? e.responseCode : undefined;
  const reply = (e.response ?? e.message ?? String(err)).replace(/[\r\n]+/g, ' ').slice(0, 300);
  if (code !== undefined && code >= 500 && code < 600)
    return new MailSendError(`the SMTP server refused the message for good (${code}): ${reply}`, true);
  return new MailSendError(
    code !== undefined
      ? `the SMTP server deferred the message (${code}): ${reply}`
      : `the SMTP server could not be reached (${e.code ?? 'error'}): ${reply}`,
    false,
  );
}

export class SmtpMailTransport implements MailTransport {
  private readonly transporter: Transporter;

  constructor(settings: SmtpSettings) {
    this.transporter = nodemailer.createTransport({
      host: settings.host,
      port: settings.port,
      // 465 is SMTP over TLS from the first byte; other ports upgrade with STARTTLS when offered.
      secure: settings.port === 465,
      ...(settings.user !== undefined ? { auth: { user: settings.user, pass: settings.pass ?? '' } } : {}),
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    });
  }

  async send(mail: OutgoingMail): Promise<void> {
    try {
      await this.transporter.sendMail({
        from: mail.from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: mail.messageId,
      });
    } catch (err) {
      throw classifySmtpFailure(err);
    }
  }

  close(): void {
    this.transporter.close();
  }
}
