/** After a reset (or an operator's reset): the owner is told, whoever did it. */
import { composeMail, type MailSettings, type RenderedMail } from './layout.js';

export function passwordChanged(data: { handle: string }, settings: MailSettings): RenderedMail {
  const subject = `Your ${settings.siteName} password was changed`;
  const what = `The password of the account ${data.handle} was just changed. Every session was signed out and every Subsonic client key was revoked.`;
  const act =
    'If this was not you, reset your password at once ("Forgot password" on the login page) and tell the administrators.';
  return composeMail(subject, [what, act], settings);
}
