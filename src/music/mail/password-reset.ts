/** The reset link (single use, 30 minutes). */
import { composeMail, type MailSettings, type RenderedMail } from './layout.js';

export function passwordReset(data: { handle: string; link: string }, settings: MailSettings): RenderedMail {
  const subject = `Reset your ${settings.siteName} password`;
  const what = `Someone asked to reset the password of the account ${data.handle}.`;
  const ask = 'Choose a new password by opening the link below. It works once, for 30 minutes.';
  const unasked = 'If you did not ask for this, ignore this message: your password stays as it is.';
  const link = { url: data.link, label: 'Choose a new password' };
  return composeMail(subject, [what, ask, link, unasked], settings);
}
