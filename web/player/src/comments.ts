/**
 * A track's comments: read from GET /tracks/:id/comments (the general limit), written under
 * /comments. A comment's time belongs to the version it was made on: the waveform of a version
 * draws only its own comments (and older ones, whose version is unknown, that fit in it). Authors
 * edit and delete theirs; the track's owner deletes any. A failure stays inside this part.
 */
import { h, clear } from '../../shared/dom';
import { field, showProblem, clearProblem } from '../../shared/forms';
import { api, clock, problemText, session, type Comment, type Track, type Version } from './api';
import type { MediaClock, WaveformView } from './waveform';

/** The comments a version's waveform draws. */
export function drawnOn(version: Version, comments: Comment[]): Comment[] {
  const length = version.duration_ms ?? Infinity;
  return comments.filter(
    (c) =>
      c.position_ms !== null &&
      (c.version_id === version.id || (c.version_id === null && c.position_ms <= length)),
  );
}

export function commentsPart(
  track: Track,
  version: Version,
  audio: MediaClock,
  wave: WaveformView | undefined,
  ownerViewing: boolean,
): HTMLElement {
  const list = h('ol', { class: 'comments', 'aria-label': 'Comments' });
  const status = h('div', {});
  const section = h('section', { 'data-part': 'comments' }, h('h2', {}, 'Comments'), status, list);
  let loads = 0;
  const load = async (): Promise<void> => {
    // After a post, edit or delete here, the page's counts follow.
    if (loads++ > 0) document.dispatchEvent(new Event('music:comments'));
    try {
      const answer = await api<{ items: Comment[] }>(
        `/tracks/${encodeURIComponent(track.id)}/comments?limit=100`,
      );
      wave?.setComments(drawnOn(version, answer.items));
      clear(status);
      clear(
        list,
        answer.items.map((c) => commentItem(c, version, ownerViewing, load)),
      );
      section.dataset.state = 'ready';
    } catch (err) {
      clear(
        status,
        h('p', { class: 'error', role: 'alert' }, `Comments could not be loaded: ${problemText(err)}`),
      );
      section.dataset.state = 'failed';
    }
  };
  void load();
  section.append(commentForm(track, version, audio, () => void load()));
  return section;
}

function commentItem(
  c: Comment,
  version: Version,
  ownerViewing: boolean,
  reload: () => Promise<void>,
): HTMLElement {
  const me = session()?.handle;
  const mine = me === c.user.handle;
  const text = h('span', { class: 'comment-body' }, ` ${c.body}`);
  const error = h('span', { class: 'field-error', role: 'alert' });
  const item = h(
    'li',
    { 'data-comment': c.id },
    h('strong', {}, c.user.display_name ?? c.user.handle),
    c.position_ms !== null ? h('span', { class: 'badge' }, clock(c.position_ms)) : null,
    c.version_id !== null && c.version_id !== version.id
      ? h('span', { class: 'muted' }, ' (on another version)')
      : null,
    text,
    c.edited_at ? h('span', { class: 'muted' }, ' (edited)') : null,
  );
  const actions = h('span', { class: 'comment-actions' });
  if (mine) {
    actions.append(
      h(
        'button',
        {
          type: 'button',
          class: 'link',
          'aria-label': `Edit the comment “${c.body.slice(0, 40)}”`,
          onclick: () => editInPlace(item, c, reload),
        },
        'Edit',
      ),
    );
  }
  if (mine || ownerViewing) {
    actions.append(
      h(
        'button',
        {
          type: 'button',
          class: 'link',
          'aria-label': `Delete the comment “${c.body.slice(0, 40)}”`,
          onclick: () => {
            if (!confirm('Delete this comment?')) return;
            api(`/comments/${c.id}`, { method: 'DELETE' }).then(reload, (err: unknown) =>
              clear(error, problemText(err)),
            );
          },
        },
        'Delete',
      ),
    );
  }
  item.append(actions, error);
  return item;
}

function editInPlace(item: HTMLElement, c: Comment, reload: () => Promise<void>): void {
  const body = field(`edit-${c.id}`, 'Edit the comment', h('textarea', { rows: 2, maxlength: 2000 }));
  body.input.value = c.body;
  const general = h('p', { class: 'error', role: 'alert' });
  const form = h(
    'form',
    { class: 'stack', novalidate: true },
    body.wrap,
    general,
    h(
      'div',
      { class: 'row' },
      h('button', { type: 'submit', class: 'primary' }, 'Save the comment'),
      h('button', { type: 'button', onclick: () => void reload() }, 'Cancel'),
    ),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    clearProblem([body], general);
    api(`/comments/${c.id}`, { method: 'PATCH', body: JSON.stringify({ body: body.input.value }) }).then(
      reload,
      // The server's errors point at /body; this field is named for its comment.
      (err: unknown) => showProblem(err, [{ ...body, name: 'body' }], general),
    );
  });
  clear(item, form);
  body.input.focus();
}

function commentForm(track: Track, version: Version, audio: MediaClock, reload: () => void): HTMLElement {
  if (!session()) return h('p', {}, h('a', { href: '/login' }, 'Log in'), ' to comment.');
  const text = field('body', 'Comment', h('textarea', { rows: 2, maxlength: 2000, required: true }));
  const at = field('position_ms', 'At (m:ss)', h('input', { type: 'text', inputmode: 'numeric', size: 6 }));
  const general = h('p', { class: 'error', role: 'alert' });
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Post the comment');
  const form = h(
    'form',
    { class: 'stack', novalidate: true },
    text.wrap,
    h(
      'div',
      { class: 'row' },
      at.wrap,
      h(
        'button',
        { type: 'button', onclick: () => (at.input.value = clock(audio.currentTime * 1000)) },
        'Use the current time',
      ),
    ),
    general,
    submit,
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    clearProblem([text, at], general);
    const m = /^(\d{1,4}):([0-5]\d)$/.exec(at.input.value.trim());
    if (at.input.value.trim() && !m)
      return void at.error.append('Write the time as minutes:seconds, e.g. 0:05.');
    const position = m ? (Number(m[1]) * 60 + Number(m[2])) * 1000 : Math.round(audio.currentTime * 1000);
    submit.disabled = true;
    api('/comments', {
      method: 'POST',
      body: JSON.stringify({
        track_id: track.id,
        version_id: version.id,
        body: text.input.value,
        position_ms: position,
      }),
    })
      .then(() => {
        text.input.value = '';
        reload();
      })
      .catch((err: unknown) => showProblem(err, [text, at], general))
      .finally(() => (submit.disabled = false));
  });
  return form;
}
