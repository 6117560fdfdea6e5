/** Upload: a file and a title; progress while parts are sent; then the track page (processing). */
import { h, clear } from '../../shared/dom';
import { field, showProblem, clearProblem } from '../../shared/forms';
import { api, session } from './api';
import { forgetUpload, pendingUpload, sameFile, uploadFile } from './uploader';

export function renderUpload(app: HTMLElement, go: (path: string) => void): void {
  document.title = 'Upload · Music';
  if (!session()) {
    clear(app, h('h1', {}, 'Upload'), h('p', {}, 'Log in to upload. ', h('a', { href: '/login' }, 'Log in')));
    return;
  }
  const pending = pendingUpload();
  const fileField = field(
    'file',
    'Audio file',
    h('input', { type: 'file', accept: 'audio/*,.flac,.wav,.mp3,.ogg,.m4a,.aiff', required: true }),
  );
  const titleField = field('title', 'Title', h('input', { type: 'text', maxlength: 200, required: true }));
  if (pending) titleField.input.value = pending.title;
  const progress = h('progress', { max: 1, value: 0, 'aria-label': 'Upload progress' });
  const progressText = h('span', { 'data-testid': 'upload-progress' });
  const general = h('p', { class: 'error', role: 'alert' });
  const submit = h('button', { type: 'submit', class: 'primary' }, pending ? 'Resume the upload' : 'Upload');
  const fields = [fileField, titleField];
  const form = h(
    'form',
    { class: 'stack', novalidate: true },
    pending
      ? h(
          'p',
          { class: 'notice', 'data-testid': 'resume-notice' },
          `An upload of ${pending.name} was interrupted. Choose the same file to send only the missing parts. `,
          h(
            'button',
            { type: 'button', class: 'link', onclick: () => (forgetUpload(), renderUpload(app, go)) },
            'Start over instead',
          ),
        )
      : null,
    fields.map((f) => f.wrap),
    h('div', { class: 'row' }, progress, progressText),
    general,
    submit,
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    clearProblem(fields, general);
    const file = (fileField.input as HTMLInputElement).files?.[0];
    if (!file) return void fileField.error.append('Choose an audio file.');
    const title = titleField.input.value.trim();
    if (!title) return void titleField.error.append('Give the track a title.');
    if (pending && !sameFile(pending, file) && !confirm(`This is not ${pending.name}; start a new upload?`))
      return;
    submit.disabled = true;
    void (async () => {
      try {
        const assetId = await uploadFile(file, title, (sent, total) => {
          progress.value = total ? sent / total : 0;
          progressText.textContent = `${Math.round((100 * sent) / Math.max(1, total))}% (${(sent / 1e6).toFixed(1)} of ${(total / 1e6).toFixed(1)} MB)`;
        });
        const track = await api<{ id: string }>('/tracks', {
          method: 'POST',
          body: JSON.stringify({ title, visibility: 'public' }),
        });
        await api(`/tracks/${track.id}/versions`, {
          method: 'POST',
          body: JSON.stringify({ asset_id: assetId }),
        });
        go(`/tracks/${track.id}`);
      } catch (err) {
        showProblem(err, fields, general);
        submit.disabled = false;
      }
    })();
  });
  clear(app, h('h1', {}, 'Upload a track'), form);
}
