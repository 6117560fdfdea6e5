/**
 * A real SMTP server for the mail tests (the `smtp-server` package, nodemailer's authors): it
 * parses each message with `mailparser` and hands it to whoever waits for mail to that address.
 * A recipient can be refused for good (5xx) or deferred (4xx) a number of times first.
 */
import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string;
  raw: string;
  parsed: ParsedMail;
}

type Rule = { kind: 'refuse' } | { kind: 'defer'; times: number };

export interface SmtpSink {
  port: number;
  /** The next message to `address` (already received or still to come). */
  next(address: string): Promise<ReceivedMail>;
  /** Every RCPT TO seen for the address, accepted or not. */
  attempts(address: string): number;
  refuse(address: string): void;
  defer(address: string, times: number): void;
  close(): Promise<void>;
}

class SmtpReply extends Error {
  constructor(
    message: string,
    readonly responseCode: number,
  ) {
    super(message);
  }
}

export async function startSmtpSink(): Promise<SmtpSink> {
  const inbox = new Map<string, ReceivedMail[]>();
  const waiters = new Map<string, ((mail: ReceivedMail) => void)[]>();
  const rules = new Map<string, Rule>();
  const seen = new Map<string, number>();
  const deliver = (mail: ReceivedMail): void => {
    const waiting = waiters.get(mail.to);
    const waiter = waiting?.shift();
    if (waiter) waiter(mail);
    else inbox.set(mail.to, [...(inbox.get(mail.to) ?? []), mail]);
  };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const to = address.address.toLowerCase();
      seen.set(to, (seen.get(to) ?? 0) + 1);
      const rule = rules.get(to);
      if (rule?.kind === 'refuse') return callback(new SmtpReply('5.1.1 Mailbox does not exist', 550));
      if (rule?.kind === 'defer' && rule.times > 0) {
        rule.times -= 1;
        return callback(new SmtpReply('4.7.1 Try again later', 451));
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw)
          .then((parsed) => {
            for (const rcpt of session.envelope.rcptTo)
              deliver({ to: rcpt.address.toLowerCase(), raw, parsed });
            callback();
          })
          .catch((err: Error) => callback(err));
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    next(address) {
      const to = address.toLowerCase();
      const queued = inbox.get(to);
      const first = queued?.shift();
      if (first) return Promise.resolve(first);
      return new Promise((resolve) => waiters.set(to, [...(waiters.get(to) ?? []), resolve]));
    },
    attempts: (address) => seen.get(address.toLowerCase()) ?? 0,
    refuse: (address) => rules.set(address.toLowerCase(), { kind: 'refuse' }),
    defer: (address, times) => rules.set(address.toLowerCase(), { kind: 'defer', times }),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The token of a mailed link (`…#token=<43 characters>`), from the plain text part. */
export function linkIn(mail: ReceivedMail): { url: URL; token: string } {
  const m = /https?:\/\/\S+#token=([A-Za-z0-9_-]{43})/.exec(mail.parsed.text ?? '');
  if (!m?.[1]) throw new Error(`no link in the mail: ${mail.parsed.text ?? ''}`);
  return { url: new URL(m[0]), token: m[1] };
}
