/**
 * The artist's own page: their bio and picture, edited in place (PUT/DELETE /users/me/picture: the
 * server probes and re-encodes the file); the welcome after sign-up.
 */
import { clear, h } from '../../shared/dom';
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
  const mail = h('p', {});
  // Only a server that sends mail (and asks for the address to be confirmed) sent one.
  void api<{ required: boolean; verified: boolean }>('/me/verification')
    .then((s) =>
      clear(
        mail,
        s.required && !s.verified
          ? `Check your mail: a link sent to ${email} confirms your address.`
          : 'Your account is ready.',
      ),
    )
    .catch(() => clear(mail, 'Your account is ready.'));
  return h(
    'section',
    { class: 'notice', 'data-testid': 'welcome', 'aria-label': 'Welcome' },
    h('h2', {}, 'Welcome!'),
    mail,
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
    pictureControls(profile, reload),
    form,
  );
}

/** "Change picture" (a file input) and, with a picture, "Remove picture"; the server's words on refusal. */
function pictureControls(profile: Profile, reload: () => void): HTMLElement {
  const file = field(
    'picture',
    'Change picture',
    h('input', { type: 'file', accept: 'image/png,image/jpeg,image/webp,image/gif,image/bmp' }),
  );
  const general = h('p', { class: 'error', role: 'alert' });
  const send = (init: RequestInit): void => {
    clearProblem([file], general);
    api('/users/me/picture', init).then(reload, (err: unknown) => showProblem(err, [file], general));
  };
  file.input.addEventListener('change', () => {
    const chosen = (file.input as HTMLInputElement).files?.[0];
    if (chosen)
      send({ method: 'PUT', body: chosen, headers: { 'content-type': 'application/octet-stream' } });
  });
  const remove = h('button', { type: 'button' }, 'Remove picture');
  remove.addEventListener('click', () => send({ method: 'DELETE' }));
  const hasPicture = (profile.picture_url ?? null) !== null;
  return h(
    'div',
    { class: 'stack', role: 'group', 'aria-label': 'Your picture' },
    file.wrap,
    hasPicture ? remove : null,
    general,
  );
}
