/** To the old address when an address change is asked: the owner learns of it at once. */
import { composeMail, type MailSettings, type RenderedMail } from './layout.js';

export function emailChangeNotice(
  data: { handle: string; newEmail: string },
  settings: MailSettings,
): RenderedMail {
  const subject = `Your ${settings.siteName} address is being changed`;
  const what = `Someone signed in as ${data.handle} asked to change the account's address to ${data.newEmail}. The change happens when that address is confirmed.`;
  const act =
    'If this was not you, reset your password now ("Forgot password" on the login page): that ends every session and cancels nothing else you need.';
  return composeMail(subject, [what, act], settings);
}
