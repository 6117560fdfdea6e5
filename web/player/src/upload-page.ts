/**
 * Upload: a file, its title (filled from the file name, then from its tags), description and
 * visibility (Public only once the address is confirmed, where the server requires it); progress
 * while parts are sent; then the track page (processing). A refused file is said in words and
 * never offered for resuming.
 */
import { h, clear } from '../../shared/dom';
import { field, showProblem, clearProblem } from '../../shared/forms';
import { api, session } from './api';
import { forgetUpload, pendingUpload, sameFile, uploadFile } from './uploader';
import { processingPanel } from './live';

export const VISIBILITIES = [
  ['public', 'Public: listed and found by anyone'],
  ['unlisted', 'Unlisted: only people with the link'],
  ['private', 'Private: only me'],
] as const;

export function visibilitySelect(value = 'public'): HTMLSelectElement {
  return h(
    'select',
    {},
    VISIBILITIES.map(([v, label]) => h('option', { value: v, selected: v === value }, label)),
  );
}

/**
 * An address not confirmed yet cannot publish publicly (a server that sends mail): Public waits,
 * Unlisted is chosen, and the note says why, before a whole file is sent only to be refused.
 */
async function publicAfterConfirmation(select: HTMLSelectElement, note: HTMLElement): Promise<void> {
  const address = await api<{ verified: boolean; required: boolean }>('/me/verification').catch(
    () => undefined,
  );
  const option = select.querySelector<HTMLOptionElement>('option[value="public"]');
  if (!address?.required || address.verified || !option) return;
  option.disabled = true;
  option.textContent = 'Public: once your address is confirmed';
  if (select.value === 'public') select.value = 'unlisted';
  note.hidden = false;
  clear(
    note,
    'Public opens once you confirm your address: open the link we mailed you, or ask for a new one on your ',
    h('a', { href: '/me/sessions' }, 'account page'),
    '.',
  );
}

/** The title a file suggests: its name without the extension, separators as spaces. */
export function titleFromName(name: string): string {
  return name
    .replace(/\.[^.]{1,5}$/, '')
    .replace(/[_]+/g, ' ')
    .trim();
}

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
  const descriptionField = field(
    'description',
    'Description (optional)',
    h('textarea', { rows: 3, maxlength: 5000 }),
  );
  const visibilityField = field('visibility', 'Who can listen', visibilitySelect());
  const visibilityNote = h('p', { class: 'muted', 'data-testid': 'visibility-note', hidden: true });
  visibilityField.wrap.append(visibilityNote);
  void publicAfterConfirmation(visibilityField.input as HTMLSelectElement, visibilityNote);
  if (pending) titleField.input.value = pending.title;
  // The title follows the file until the person types one of their own.
  let titleTyped = Boolean(pending);
  titleField.input.addEventListener('input', () => (titleTyped = true));
  fileField.input.addEventListener('change', () => {
    const file = (fileField.input as HTMLInputElement).files?.[0];
    if (file && !titleTyped) titleField.input.value = titleFromName(file.name);
  });
  const progress = h('progress', { max: 1, value: 0, 'aria-label': 'Upload progress' });
  const progressText = h('span', { 'data-testid': 'upload-progress' });
  // No empty bar before anything is sent: it appears with the first part.
  const progressRow = h('div', { class: 'row', hidden: true }, progress, progressText);
  const general = h('p', { class: 'error', role: 'alert' });
  const submit = h('button', { type: 'submit', class: 'primary' }, pending ? 'Resume the upload' : 'Upload');
  const fields = [fileField, titleField, descriptionField, visibilityField];
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
    progressRow,
    general,
    submit,
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    clearProblem(fields, general);
    const file = (fileField.input as HTMLInputElement).files?.[0];
    if (!file) return void fileField.error.append('Choose an audio file.');
    const typed = titleField.input.value.trim();
    if (!typed) return void titleField.error.append('Give the track a title.');
    if (pending && !sameFile(pending, file) && !confirm(`This is not ${pending.name}; start a new upload?`))
      return;
    submit.disabled = true;
    void (async () => {
      try {
        progressRow.hidden = false;
        const completed = await uploadFile(file, typed, (sent, total) => {
          progress.value = total ? sent / total : 0;
          progressText.textContent = `${Math.round((100 * sent) / Math.max(1, total))}% (${(sent / 1e6).toFixed(1)} of ${(total / 1e6).toFixed(1)} MB)`;
        });
        // A title the person did not type gives way to the file's own title tag.
        const tagged = completed.probe?.tags?.title?.trim();
        const title = !titleTyped && tagged ? tagged.slice(0, 200) : typed;
        const description = descriptionField.input.value.trim();
        const track = await api<{ id: string }>('/tracks', {
          method: 'POST',
          body: JSON.stringify({
            title,
            visibility: visibilityField.input.value,
            ...(description ? { description } : {}),
          }),
        });
        await api(`/tracks/${track.id}/versions`, {
          method: 'POST',
          body: JSON.stringify({ asset_id: completed.asset_id }),
        });
        go(`/tracks/${track.id}`);
      } catch (err) {
        showProblem(err, fields, general);
        // A refused file is forgotten (uploader.ts): the form no longer offers to resume it.
        if (!pendingUpload()) {
          submit.textContent = 'Upload';
          form.querySelector('[data-testid="resume-notice"]')?.remove();
        }
        submit.disabled = false;
      }
    })();
  });
  // Earlier uploads still processing, step by step, while the next one is chosen.
  clear(app, h('h1', {}, 'Upload a track'), form, processingPanel());
}
