/** "Confirm your address": sent at sign-up and to the new address of an address change. */
import { composeMail, type MailSettings, type RenderedMail } from './layout.js';

export function verifyEmail(
  data: { handle: string; link: string; change: boolean },
  settings: MailSettings,
): RenderedMail {
  const subject = `Confirm your email address for ${settings.siteName}`;
  const why = data.change
    ? `You asked to use this address for the account ${data.handle}.`
    : `Welcome, ${data.handle}! Your account is ready.`;
  const ask = 'Confirm this address by opening the link below (valid for 48 hours).';
  const unasked = 'If you did not ask for this, ignore this message: nothing changes.';
  const link = { url: data.link, label: 'Confirm the address' };
  return composeMail(subject, [why, ask, link, unasked], settings);
}
