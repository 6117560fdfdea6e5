/**
 * The artist's own page: their bio, edited in place (the picture is shown when the profile has one;
 * its upload waits for PUT /users/me/picture); the welcome after sign-up.
 */
import { h } from '../../shared/dom';
import { field, showProblem, clearProblem } from '../../shared/forms';
import { api } from './api';
import type { Profile } from './list-pages';

let welcomeEmail: string | undefined;

/** Sign-up just happened: the profile it opens says what comes next. */
export function markWelcome(email: string): void {
  welcomeEmail = email;
}

export function welcomeNote(): HTMLElement | null {
  const email = welcomeEmail;
  welcomeEmail = undefined;
  if (email === undefined) return null;
  return h(
    'section',
    { class: 'notice', 'data-testid': 'welcome', 'aria-label': 'Welcome' },
    h('h2', {}, 'Welcome!'),
    h('p', {}, `Check your mail: a link sent to ${email} confirms your address.`),
    h('p', {}, 'Next: ', h('a', { href: '/upload' }, 'upload your first track'), '.'),
  );
}

export function profileEditor(profile: Profile, reload: () => void): HTMLElement {
  const bio = field('bio', 'Short bio', h('textarea', { rows: 4, maxlength: 2000 }));
  bio.input.value = profile.bio ?? '';
  const general = h('p', { class: 'error', role: 'alert' });
  const done = h('p', { role: 'status', class: 'muted' });
  const form = h(
    'form',
    { class: 'stack', novalidate: true, 'aria-label': 'Edit your bio' },
    bio.wrap,
    general,
    done,
    h('button', { type: 'submit', class: 'primary' }, 'Save the bio'),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    clearProblem([bio], general);
    api('/users/me', { method: 'PATCH', body: JSON.stringify({ bio: bio.input.value.trim() }) }).then(
      reload,
      (err: unknown) => showProblem(err, [bio], general),
    );
  });

  return h(
    'section',
    { class: 'manage', 'aria-label': 'Your artist page', 'data-part': 'profile-edit' },
    h('h2', {}, 'Your artist page'),
    form,
  );
}
