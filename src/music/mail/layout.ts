/**
 * What every mail shares: the HTML frame (escaped values only), the plain-text footer, and the
 * message a template returns. Templates are pure: the worker renders, the transport sends.
 */

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** What a template is given beside the job's data. */
export interface MailSettings {
  /** The platform's name as mails say it (the host of its public URL). */
  siteName: string;
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

/** Paragraphs of (already escaped) HTML in a minimal, inline-styled frame that mail clients keep. */
export function htmlFrame(title: string, paragraphs: readonly string[]): string {
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<title>${escapeHtml(title)}</title></head>`,
    '<body style="font-family:system-ui,sans-serif;line-height:1.5;max-width:36em;margin:1em auto;color:#222">',
    ...paragraphs.map((p) => `<p>${p}</p>`),
    '</body></html>',
  ].join('\n');
}

/** A link as a button-like anchor plus its address in full (some clients strip anchors). */
export function htmlLink(url: string, label: string): string {
  const href = escapeHtml(url);
  return `<a href="${href}" style="display:inline-block;padding:.5em 1em;background:#2a5bd7;color:#fff;text-decoration:none;border-radius:4px">${escapeHtml(label)}</a><br><small>${href}</small>`;
}

export function textFooter(settings: MailSettings): string {
  return `-- \n${settings.siteName}`;
}

/** A paragraph of a mail: plain text, or a link (its address in the text, a button in HTML). */
export type MailPart = string | { url: string; label: string };

/** The text and HTML forms of one mail from its paragraphs, with the footer. */
export function composeMail(
  subject: string,
  parts: readonly MailPart[],
  settings: MailSettings,
): RenderedMail {
  const text = parts.map((p) => (typeof p === 'string' ? p : p.url));
  return {
    subject,
    text: `${[...text, textFooter(settings)].join('\n\n')}\n`,
    html: htmlFrame(
      subject,
      parts.map((p) => (typeof p === 'string' ? escapeHtml(p) : htmlLink(p.url, p.label))),
    ),
  };
}
