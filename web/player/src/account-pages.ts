/**
 * Accounts that look after themselves (docs/accounts.md): /forgot-password, /reset-password and
 * /verify (their token arrives in the link's fragment, which never reaches the server), and
 * /me/sessions (the address's state, the signed-in sessions, ending one or all).
 */
import { h, clear } from '../../shared/dom';
import { field, showProblem, clearProblem, type Field } from '../../shared/forms';
import { api, problemText, saveSession, session } from './api';

type Go = (path: string) => void;

/** The token of a mailed link: `#token=...` (a fragment, so it stays out of server logs). */
function tokenFromHash(): string {
  return new URLSearchParams(location.hash.slice(1)).get('token') ?? '';
}

/** A one-button form whose fields are posted as JSON; `done` draws the answer. */
function postForm<T>(
  fields: Field[],
  label: string,
  send: (body: Record<string, string>) => Promise<T>,
  done: (answer: T) => void,
): HTMLFormElement {
  const general = h('p', { class: 'error', role: 'alert' });
  const submit = h('button', { type: 'submit', class: 'primary' }, label);
  const form = h(
    'form',
    { class: 'stack', novalidate: true },
    fields.map((f) => f.wrap),
    general,
    submit,
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    clearProblem(fields, general);
    submit.disabled = true;
    send(Object.fromEntries(fields.map((f) => [f.name, f.input.value])))
      .then(done)
      .catch((err: unknown) => showProblem(err, fields, general))
      .finally(() => (submit.disabled = false));
  });
  return form;
}

const post = <T>(path: string, body: unknown): Promise<T> =>
  api<T>(path, { method: 'POST', body: JSON.stringify(body) });

export function renderForgotPassword(app: HTMLElement): void {
  document.title = 'Forgot password · Music';
  const email = field('email', 'Email', h('input', { type: 'email', autocomplete: 'email', required: true }));
  const form = postForm(
    [email],
    'Send me a link',
    (body) => post<{ message: string }>('/auth/password-reset', body),
    (answer) => clear(app, h('h1', {}, 'Check your mail'), h('p', { role: 'status' }, answer.message)),
  );
  clear(
    app,
    h('h1', {}, 'Forgot password'),
    h('p', {}, 'Give the address of your account: we mail you a link to choose a new password.'),
    form,
  );
}

export function renderResetPassword(app: HTMLElement): void {
  document.title = 'Choose a new password · Music';
  const token = tokenFromHash();
  if (token === '') {
    clear(
      app,
      h('h1', {}, 'Choose a new password'),
      h(
        'p',
        { class: 'error', role: 'alert' },
        'This page opens from the link in the mail; ',
        h('a', { href: '/forgot-password' }, 'ask for a new one'),
        '.',
      ),
    );
    return;
  }
  const password = field(
    'password',
    'New password (at least 10 characters)',
    h('input', { type: 'password', autocomplete: 'new-password', required: true }),
  );
  const form = postForm(
    [password],
    'Set the password',
    (body) => post<{ message: string }>('/auth/password-reset/confirm', { token, password: body.password }),
    (answer) => {
      // Every session ended with the reset, this one too.
      saveSession(null);
      history.replaceState(null, '', '/reset-password');
      clear(
        app,
        h('h1', {}, 'Password set'),
        h('p', { role: 'status' }, answer.message, ' ', h('a', { href: '/login' }, 'Log in')),
      );
    },
  );
  clear(app, h('h1', {}, 'Choose a new password'), form);
}

export async function renderVerify(app: HTMLElement): Promise<void> {
  document.title = 'Confirm your address · Music';
  const token = tokenFromHash();
  clear(app, h('h1', {}, 'Confirm your address'), h('p', { role: 'status' }, token ? 'Confirming…' : ''));
  if (token === '') {
    clear(
      app,
      h('h1', {}, 'Confirm your address'),
      h('p', { class: 'error', role: 'alert' }, 'This page opens from the link in the mail.'),
    );
    return;
  }
  try {
    const answer = await post<{ email: string }>('/auth/verification/confirm', { token });
    history.replaceState(null, '', '/verify');
    clear(
      app,
      h('h1', {}, 'Address confirmed'),
      h('p', { role: 'status' }, `${answer.email} is verified. You can publish tracks publicly.`),
    );
  } catch (err) {
    clear(
      app,
      h('h1', {}, 'Confirm your address'),
      h('p', { class: 'error', role: 'alert' }, problemText(err)),
    );
  }
}

interface SessionView {
  id: string;
  device: string;
  current: boolean;
  signed_in_at: string;
  last_seen_at: string;
}

const when = (iso: string): string =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** "just now", "5 minutes ago", "3 days ago": how long since a session was last used. */
function ago(iso: string): string {
  const seconds = Math.max(0, (Date.now() - Date.parse(iso)) / 1000);
  if (seconds < 60) return 'just now';
  const say = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  for (const [unit, size] of [
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ] as const)
    if (seconds >= size) return say.format(-Math.floor(seconds / size), unit);
  return 'just now';
}

export async function renderSessions(app: HTMLElement, go: Go): Promise<void> {
  document.title = 'Sessions · Music';
  if (!session()) {
    clear(
      app,
      h('h1', {}, 'Your account'),
      h('p', {}, h('a', { href: '/login' }, 'Log in'), ' to see your account and its sessions.'),
    );
    return;
  }
  const [status, list] = await Promise.all([
    api<{ email: string; verified: boolean; required: boolean }>('/me/verification'),
    api<{ sessions: SessionView[] }>('/me/sessions'),
  ]);
  const notice = h('p', { role: 'status' });
  const resend = h('button', { type: 'button' }, 'Resend the confirmation');
  resend.addEventListener('click', () => {
    resend.disabled = true;
    post<{ sent_to: string }>('/auth/verification', {})
      .then((a) => clear(notice, `A new link is on its way to ${a.sent_to}.`))
      .catch((err: unknown) => clear(notice, problemText(err)))
      .finally(() => (resend.disabled = false));
  });
  const address = status.verified
    ? h('p', {}, `${status.email} (verified)`)
    : status.required
      ? h(
          'p',
          {},
          `${status.email} is not verified yet: you can listen and upload, and publish publicly once it is. `,
          resend,
        )
      : h('p', {}, status.email);
  const end = (id: string | undefined): void => {
    api<undefined>(id ? `/me/sessions/${encodeURIComponent(id)}` : '/me/sessions', { method: 'DELETE' })
      .then(() => {
        const mine = id === undefined || list.sessions.find((s) => s.id === id)?.current;
        if (mine) {
          saveSession(null);
          go('/login');
        } else void renderSessions(app, go);
      })
      .catch((err: unknown) => clear(notice, problemText(err)));
  };
  const rows = list.sessions.map((s) =>
    h(
      'li',
      { class: 'session', 'data-current': String(s.current) },
      h('strong', { class: 'device' }, s.device),
      s.current ? h('span', { class: 'this-device' }, 'This device') : null,
      h(
        'span',
        { class: 'session-times' },
        // The current session is in use right now, whatever its last written time says.
        `Last used ${s.current ? 'now' : ago(s.last_seen_at)} · signed in ${when(s.signed_in_at)}`,
      ),
      h(
        'button',
        {
          type: 'button',
          'aria-label': s.current ? "End this device's session" : `End the session of ${s.device}`,
          onclick: () => end(s.id),
        },
        'End',
      ),
    ),
  );
  clear(
    app,
    h('h1', {}, 'Your account'),
    h('h2', {}, 'Address'),
    address,
    h('h2', {}, 'Sessions'),
    h('ul', { class: 'sessions' }, rows),
    h('button', { type: 'button', onclick: () => end(undefined) }, 'End every session (this one too)'),
    notice,
  );
}
