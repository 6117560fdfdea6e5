/**
 * The owner's tools on a track page: edit the title, description, visibility and tags; delete
 * (after a confirmation); list the versions and choose the current one; add a new version and
 * watch it process (the page's processing notice).
 */
import { h, clear } from '../../shared/dom';
import { field, showProblem, clearProblem, type Field } from '../../shared/forms';
import { ProblemError } from '../../shared/http';
import { api, clock, problemText, type Track, type Version } from './api';
import { part } from './parts';
import { sellPart } from './selling';
import { titleFromName, visibilitySelect } from './upload-page';
import { uploadFile } from './uploader';

export function managePart(track: Track, reload: () => void, go: (path: string) => void): HTMLElement {
  return h(
    'section',
    { class: 'manage', 'aria-label': 'Manage this track', 'data-part': 'manage' },
    h('h2', {}, 'Manage this track'),
    editForm(track, reload),
    sellPart(track),
    part('Versions', 'versions', () => versionList(track, reload), 'h3'),
    addVersionForm(track, reload),
    deleteButton(track, go),
  );
}

function text(name: string, label: string, value: string | number | null | undefined, max: number): Field {
  const f = field(name, label, h('input', { type: 'text', maxlength: max }));
  f.input.value = value === null || value === undefined ? '' : String(value);
  return f;
}

function editForm(track: Track, reload: () => void): HTMLElement {
  const title = text('title', 'Title', track.title, 200);
  const description = field('description', 'Description', h('textarea', { rows: 3, maxlength: 5000 }));
  description.input.value = track.description;
  const visibility = field('visibility', 'Who can listen', visibilitySelect(track.visibility));
  const tags = track.tags;
  const tagFields = tags
    ? [
        text('artist', 'Artist', tags.artist, 500),
        text('album', 'Album', tags.album, 500),
        text('genre', 'Genre', tags.genre, 200),
        text('date', 'Date (a year, 2020-07 or 2020-07-14)', tags.date ?? tags.year, 10),
      ]
    : [];
  const general = h('p', { class: 'error', role: 'alert' });
  const done = h('p', { role: 'status', class: 'muted' });
  const fields = [title, description, visibility, ...tagFields];
  const form = h(
    'form',
    { class: 'stack', novalidate: true, 'aria-label': 'Edit the track' },
    h('h3', {}, 'Details'),
    title.wrap,
    description.wrap,
    visibility.wrap,
    tagFields.map((f) => f.wrap),
    general,
    done,
    h('button', { type: 'submit', class: 'primary' }, 'Save the changes'),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    clearProblem(fields, general);
    clear(done);
    const body: Record<string, unknown> = {
      title: title.input.value.trim(),
      description: description.input.value,
      visibility: visibility.input.value,
    };
    if (tags) {
      const tagBody: Record<string, string | number | null> = {};
      for (const f of tagFields) tagBody[f.name] = f.input.value.trim() || null;
      // The year follows the date's first four digits (a bare year is a date too).
      const date = tagBody.date;
      tagBody.year = typeof date === 'string' && /^\d{4}/.test(date) ? Number(date.slice(0, 4)) : null;
      body.tags = tagBody;
    }
    api(`/tracks/${track.id}`, { method: 'PATCH', body: JSON.stringify(body) }).then(reload, (err: unknown) =>
      // Tag errors point at /tags/<name>: shown beside the field of that name.
      showProblem(err instanceof ProblemError ? retarget(err) : err, fields, general),
    );
  });
  return form;
}

/** /tags/artist -> /artist, so a tag's message sits beside its field. */
function retarget(err: ProblemError): ProblemError {
  const errors = err.problem.errors?.map((e) => ({ ...e, path: e.path.replace(/^\/tags\//, '/') }));
  return new ProblemError({ ...err.problem, ...(errors ? { errors } : {}) }, err.retryAfter);
}

async function versionList(track: Track, reload: () => void): Promise<Node> {
  const answer = await api<{ items: Version[] }>(`/tracks/${track.id}/versions`);
  const current = track.current_version?.id;
  return h(
    'ol',
    { class: 'versions', 'aria-label': 'Versions', reversed: true },
    answer.items.map((v) => {
      const error = h('span', { class: 'field-error', role: 'alert' });
      return h(
        'li',
        { 'data-version': v.id, 'data-status': v.status },
        `Version ${v.number} · ${v.status}${v.duration_ms ? ` · ${clock(v.duration_ms)}` : ''} · ${new Date(v.created_at).toLocaleString()}`,
        ' · ',
        v.id === current
          ? h('strong', {}, 'current')
          : v.status === 'ready'
            ? h(
                'button',
                {
                  type: 'button',
                  class: 'link',
                  'aria-label': `Make version ${v.number} the current one`,
                  onclick: () =>
                    void api(`/tracks/${track.id}`, {
                      method: 'PATCH',
                      body: JSON.stringify({ current_version_id: v.id }),
                    }).then(reload, (err: unknown) => clear(error, ` ${problemText(err)}`)),
                },
                'Make current',
              )
            : null,
        v.error ? h('span', { class: 'error' }, ` ${v.error}`) : null,
        error,
      );
    }),
  );
}

function addVersionForm(track: Track, reload: () => void): HTMLElement {
  const file = field(
    'version-file',
    'New version (audio file)',
    h('input', { type: 'file', accept: 'audio/*,.flac,.wav,.mp3,.ogg,.m4a,.aiff' }),
  );
  const progress = h('span', { 'data-testid': 'version-progress', role: 'status' });
  const general = h('p', { class: 'error', role: 'alert' });
  const submit = h('button', { type: 'submit' }, 'Add the version');
  const form = h(
    'form',
    { class: 'stack', novalidate: true, 'aria-label': 'Add a version' },
    h('h3', {}, 'Add a version'),
    file.wrap,
    progress,
    general,
    submit,
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    clearProblem([file], general);
    const chosen = (file.input as HTMLInputElement).files?.[0];
    if (!chosen) return void file.error.append('Choose an audio file.');
    submit.disabled = true;
    void (async () => {
      try {
        const completed = await uploadFile(chosen, titleFromName(chosen.name), (sent, total) => {
          progress.textContent = `${Math.round((100 * sent) / Math.max(1, total))}% sent`;
        });
        await api(`/tracks/${track.id}/versions`, {
          method: 'POST',
          body: JSON.stringify({ asset_id: completed.asset_id }),
        });
        reload();
      } catch (err) {
        showProblem(err, [file], general);
        submit.disabled = false;
      }
    })();
  });
  return form;
}

function deleteButton(track: Track, go: (path: string) => void): HTMLElement {
  const error = h('p', { class: 'error', role: 'alert' });
  return h(
    'div',
    { class: 'danger' },
    h(
      'button',
      {
        type: 'button',
        class: 'danger',
        onclick: () => {
          if (!confirm(`Delete “${track.title}” with every version and comment? This cannot be undone.`))
            return;
          api(`/tracks/${track.id}`, { method: 'DELETE' }).then(
            () => go('/me/tracks'),
            (err: unknown) => clear(error, problemText(err)),
          );
        },
      },
      'Delete this track',
    ),
    error,
  );
}
