import { describe, expect, it } from 'vitest';
import { MAIL_KINDS, type MailJobData } from '../jobs/queues.js';
import { MailDataError, renderMail } from './render.js';

const settings = { siteName: 'music.example.org' };
const link = 'https://music.example.org/reset-password#token=abc&x="<y>"';

describe('mail templates', () => {
  it('renders every kind in text and HTML, the link in both, values escaped in HTML', () => {
    for (const kind of MAIL_KINDS) {
      const data: MailJobData = {
        kind,
        to: 'a@example.org',
        handle: 'dj_one',
        link,
        newEmail: 'n<b>@example.org',
      };
      const mail = renderMail(data, settings);
      expect(mail.subject).toContain('music.example.org');
      expect(mail.text).toContain('dj_one');
      expect(mail.html).not.toContain('<b>');
      expect(mail.html).not.toContain('"<y>"');
      if (kind === 'verify-email' || kind === 'password-reset') {
        expect(mail.text).toContain(link);
        expect(mail.html).toContain(
          'href="https://music.example.org/reset-password#token=abc&amp;x=&quot;&lt;y&gt;&quot;"',
        );
      }
    }
  });

  it('refuses a job without what its template needs', () => {
    expect(() => renderMail({ kind: 'password-reset', to: 'a@example.org', handle: 'x' }, settings)).toThrow(
      MailDataError,
    );
    expect(() =>
      renderMail({ kind: 'email-change-notice', to: 'a@example.org', handle: 'x' }, settings),
    ).toThrow(MailDataError);
  });
});
