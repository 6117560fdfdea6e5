/** One tool: its example in an editor, Run, then verdict, decision path, certificate and items. */
import { h, clear } from '../../shared/dom';
import { ProblemError, readProblem, type ProblemField } from '../../shared/http';
import { catalogAndExamples, type Receipt, type ToolInfo } from './api';
import { certificate } from './certificates';
import { itemsTable } from './items-table';
import { verifyPanel } from './verify-panel';

let downloadUrl: string | undefined;

export async function renderToolPage(app: HTMLElement, tool: ToolInfo): Promise<void> {
  document.title = `${tool.name} · Verifier workbench`;
  const { examples } = await catalogAndExamples();
  const exampleText = JSON.stringify(examples[tool.id], null, 2);
  const editor = h('textarea', {
    id: 'request',
    class: 'editor',
    spellcheck: 'false',
    rows: 18,
    'aria-describedby': 'request-help request-errors',
  });
  editor.value = exampleText;
  const errors = h('ul', { id: 'request-errors', class: 'field-errors', 'aria-live': 'polite' });
  const results = h('div', { class: 'results', 'aria-live': 'polite' });
  const runButton = h('button', { type: 'submit', class: 'primary' }, 'Run');
  const fileInput = h('input', { type: 'file', id: 'request-file', accept: 'application/json,.json' });
  const loadFile = async (file: File): Promise<void> => {
    editor.value = await file.text();
  };
  fileInput.addEventListener('change', () => {
    const file = fileInput.files?.[0];
    if (file) void loadFile(file);
  });
  editor.addEventListener('dragover', (e) => e.preventDefault());
  editor.addEventListener('drop', (e) => {
    const file = e.dataTransfer?.files[0];
    if (!file) return;
    e.preventDefault();
    void loadFile(file);
  });

  const run = async (): Promise<void> => {
    runButton.disabled = true;
    clear(errors);
    editor.removeAttribute('aria-invalid');
    clear(results, h('p', { class: 'muted' }, 'Running…'));
    try {
      const response = await fetch(tool.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: editor.value,
      });
      if (!response.ok) throw await readProblem(response);
      // The served bytes are the canonical receipt: they are what gets downloaded.
      const text = await response.text();
      let request: unknown = null;
      try {
        request = JSON.parse(editor.value);
      } catch {
        // The server accepted it, so it parses; kept defensive for the certificate's lookups.
      }
      showReceipt(results, tool, JSON.parse(text) as Receipt, text, request);
    } catch (err) {
      showProblem(err, editor, errors, results);
    } finally {
      runButton.disabled = false;
    }
  };

  const form = h(
    'form',
    { class: 'request-form', novalidate: true },
    h('label', { for: 'request' }, `Request body for ${tool.endpoint} (JSON)`),
    h(
      'p',
      { id: 'request-help', class: 'muted' },
      'Prefilled with the example from /api/examples. Paste, edit, or drop a JSON file on the editor.',
    ),
    editor,
    errors,
    h(
      'div',
      { class: 'row' },
      runButton,
      h(
        'button',
        {
          type: 'button',
          onclick: () => {
            editor.value = exampleText;
            clear(errors);
          },
        },
        'Reset to the example',
      ),
      h('label', { for: 'request-file', class: 'file-label' }, 'Load a request from a JSON file'),
      fileInput,
    ),
  );
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    void run();
  });
  clear(app, h('h1', {}, tool.name), h('p', { class: 'lead' }, tool.promise), form, results, verifyPanel());
}

function showProblem(
  err: unknown,
  editor: HTMLTextAreaElement,
  errors: HTMLElement,
  results: HTMLElement,
): void {
  if (!(err instanceof ProblemError)) {
    clear(
      results,
      h('p', { class: 'error', role: 'alert' }, `The request failed: ${(err as Error).message}`),
    );
    return;
  }
  const p = err.problem;
  editor.setAttribute('aria-invalid', 'true');
  const fields: ProblemField[] = p.errors ?? [];
  clear(
    errors,
    fields.map((f) =>
      h(
        'li',
        {},
        h(
          'button',
          { type: 'button', class: 'link', onclick: () => selectPointer(editor, f.path) },
          f.path || '(body)',
        ),
        ` ${f.message}`,
      ),
    ),
  );
  clear(
    results,
    h(
      'div',
      { class: 'problem', role: 'alert', 'data-testid': 'problem' },
      h('p', {}, h('strong', {}, `${p.status} ${p.title}`), p.detail ? `: ${p.detail}` : ''),
      p.hint ? h('p', { class: 'muted' }, p.hint) : null,
      // Said once: the service's detail usually says when to retry already.
      err.retryAfter && !/retry/i.test(p.detail ?? '')
        ? h('p', { class: 'muted' }, `Retry after ${err.retryAfter} s.`)
        : null,
    ),
  );
}

/** Selects the member a JSON pointer names, found by its last key in the editor text. */
function selectPointer(editor: HTMLTextAreaElement, pointer: string): void {
  const last = pointer.split('/').pop()?.replace(/~1/g, '/').replace(/~0/g, '~');
  editor.focus();
  if (!last) return;
  const needle = /^\d+$/.test(last) ? null : JSON.stringify(last);
  const at = needle ? editor.value.indexOf(needle) : -1;
  if (at >= 0) editor.setSelectionRange(at, at + needle!.length);
}

function showReceipt(
  results: HTMLElement,
  tool: ToolInfo,
  receipt: Receipt,
  text: string,
  request: unknown,
): void {
  if (downloadUrl) URL.revokeObjectURL(downloadUrl);
  downloadUrl = URL.createObjectURL(new Blob([text], { type: 'application/json' }));
  const verdict = receipt.verdict ?? receipt.status;
  clear(
    results,
    h(
      'section',
      { class: 'outcome', 'aria-labelledby': 'outcome-title' },
      h('h2', { id: 'outcome-title' }, 'Outcome'),
      h(
        'p',
        { class: `verdict v-${verdict.toLowerCase()}`, 'data-testid': 'verdict' },
        receipt.verdict ? `${receipt.verdict} · ${receipt.status}` : receipt.status,
      ),
      h('p', {}, receipt.next_action),
      h(
        'a',
        {
          href: downloadUrl,
          download: `${tool.id}-receipt.json`,
          class: 'button',
          'data-testid': 'download',
        },
        'Download the receipt',
      ),
      h('code', { class: 'hash', title: 'receipt_sha256' }, receipt.hashes.receipt_sha256 ?? ''),
    ),
    h(
      'section',
      { 'aria-labelledby': 'path-title' },
      h('h2', { id: 'path-title' }, 'Decision path'),
      h(
        'ol',
        { class: 'decision-path' },
        receipt.decision_path.map((step) =>
          h(
            'li',
            { class: `step ${step.outcome}` },
            h('span', { class: 'badge' }, step.outcome),
            h('strong', {}, step.rule),
            ` ${step.detail}`,
          ),
        ),
      ),
    ),
    h(
      'section',
      { 'aria-labelledby': 'cert-title', class: 'certificate', 'data-testid': 'certificate' },
      h('h2', { id: 'cert-title' }, 'Certificate'),
      certificate(tool.id, receipt, request),
    ),
    h(
      'section',
      { 'aria-labelledby': 'items-title' },
      h('h2', { id: 'items-title' }, `Items (${receipt.items.length})`),
      itemsTable(receipt.items),
    ),
  );
}
