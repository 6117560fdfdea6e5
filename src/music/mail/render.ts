/** One template per kind of mail (MAIL_KINDS): the job's data in, subject, text and HTML out. */
import type { MailJobData } from '../jobs/queues.js';
import { emailChangeNotice } from './email-change-notice.js';
import type { MailSettings, RenderedMail } from './layout.js';
import { passwordChanged } from './password-changed.js';
import { passwordReset } from './password-reset.js';
import { verifyEmail } from './verify-email.js';

/** A job whose data misses what its template needs (a bug of the sender: not worth a retry). */
export class MailDataError extends Error {}

function linkOf(data: MailJobData): string {
  if (data.link === undefined) throw new MailDataError(`a ${data.kind} mail needs a link`);
  return data.link;
}

export function renderMail(data: MailJobData, settings: MailSettings): RenderedMail {
  switch (data.kind) {
    case 'verify-email':
      return verifyEmail(
        { handle: data.handle, link: linkOf(data), change: data.newEmail !== undefined },
        settings,
      );
    case 'email-change-notice':
      if (data.newEmail === undefined) throw new MailDataError('an email-change-notice needs newEmail');
      return emailChangeNotice({ handle: data.handle, newEmail: data.newEmail }, settings);
    case 'password-reset':
      return passwordReset({ handle: data.handle, link: linkOf(data) }, settings);
    case 'password-changed':
      return passwordChanged({ handle: data.handle }, settings);
  }
}
