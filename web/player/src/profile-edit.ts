/** The artist's own page: their bio and picture, edited in place; the welcome after sign-up. */
import { h, clear } from '../../shared/dom';
import { field, showProblem, clearProblem } from '../../shared/forms';
import { api, problemText } from './api';
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

const PICTURE_TYPES = 'image/jpeg,image/png,image/webp';

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

  const file = h('input', { type: 'file', accept: PICTURE_TYPES, id: 'picture-file' });
  const pictureStatus = h('p', { role: 'status' });
  const upload = h('button', { type: 'button' }, 'Upload the picture');
  upload.addEventListener('click', () => {
    const chosen = file.files?.[0];
    if (!chosen) return void (pictureStatus.textContent = 'Choose a JPEG, PNG or WebP picture first.');
    pictureStatus.textContent = 'Uploading…';
    fetch('/api/v1/users/me/picture', {
      method: 'PUT',
      credentials: 'same-origin',
      headers: { 'content-type': chosen.type || 'application/octet-stream' },
      body: chosen,
    })
      .then(async (r) => {
        if (!r.ok) {
          const p = (await r.json().catch(() => ({}))) as { detail?: string; title?: string };
          throw new Error(p.detail ?? p.title ?? `The picture was refused (${r.status}).`);
        }
        reload();
      })
      .catch((err: unknown) => {
        pictureStatus.textContent = problemText(err);
        pictureStatus.className = 'error';
      });
  });
  const hasPicture = Boolean(profile.pictureUrl ?? profile.picture_url);
  const removePicture = hasPicture
    ? h(
        'button',
        {
          type: 'button',
          class: 'danger',
          onclick: () =>
            void api('/users/me/picture', { method: 'DELETE' }).then(reload, (err: unknown) =>
              clear(pictureStatus, problemText(err)),
            ),
        },
        'Remove the picture',
      )
    : null;
  return h(
    'section',
    { class: 'manage', 'aria-label': 'Your artist page', 'data-part': 'profile-edit' },
    h('h2', {}, 'Your artist page'),
    form,
    h(
      'div',
      { class: 'stack' },
      h('label', { for: 'picture-file' }, 'Picture (JPEG, PNG or WebP)'),
      file,
      h('div', { class: 'row' }, upload, removePicture),
      pictureStatus,
    ),
  );
}
