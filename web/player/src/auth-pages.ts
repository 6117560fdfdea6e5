/** Sign up and log in: the server sets the session cookie, this page notes who; then the profile opens. */
import { h, clear } from '../../shared/dom';
import { field, showProblem, clearProblem } from '../../shared/forms';
import { api, saveSession } from './api';
import { markWelcome } from './profile-edit';

interface Signed {
  expires_at: string;
  user: { handle: string };
}

export function renderAuth(app: HTMLElement, mode: 'signup' | 'login', go: (path: string) => void): void {
  const signup = mode === 'signup';
  document.title = signup ? 'Sign up · Music' : 'Log in · Music';
  const fields = signup
    ? [
        field(
          'handle',
          'Handle (3–30 letters, digits or _)',
          h('input', { type: 'text', autocomplete: 'username', required: true }),
        ),
        field('email', 'Email', h('input', { type: 'email', autocomplete: 'email', required: true })),
        field('display_name', 'Display name (optional)', h('input', { type: 'text', autocomplete: 'name' })),
        field(
          'password',
          'Password (at least 10 characters)',
          h('input', { type: 'password', autocomplete: 'new-password', required: true }),
        ),
      ]
    : [
        field(
          'login',
          'Handle or email',
          h('input', { type: 'text', autocomplete: 'username', required: true }),
        ),
        field(
          'password',
          'Password',
          h('input', { type: 'password', autocomplete: 'current-password', required: true }),
        ),
      ];
  const general = h('p', { class: 'error', role: 'alert' });
  const submit = h('button', { type: 'submit', class: 'primary' }, signup ? 'Create the account' : 'Log in');
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
    const body = Object.fromEntries(
      fields.filter((f) => f.input.value !== '').map((f) => [f.name, f.input.value]),
    );
    submit.disabled = true;
    api<Signed>(`/auth/${mode}`, { method: 'POST', body: JSON.stringify(body) })
      .then((answer) => {
        saveSession({ expires_at: answer.expires_at, handle: answer.user.handle });
        if (signup && typeof body.email === 'string') markWelcome(body.email);
        go(`/users/${answer.user.handle}`);
      })
      .catch((err: unknown) => showProblem(err, fields, general))
      .finally(() => (submit.disabled = false));
  });
  clear(
    app,
    h('h1', {}, signup ? 'Sign up' : 'Log in'),
    form,
    h(
      'p',
      {},
      signup
        ? h('a', { href: '/login' }, 'I have an account: log in')
        : h('a', { href: '/signup' }, 'New here? Sign up'),
    ),
    signup ? null : h('p', {}, h('a', { href: '/forgot-password' }, 'Forgot password?')),
  );
}
