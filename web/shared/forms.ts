/** Labelled fields whose problem messages appear beside them (matched by JSON pointer). */
import { h, clear } from './dom';
import { ProblemError } from './http';

export interface Field {
  name: string;
  input: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;
  error: HTMLElement;
  wrap: HTMLElement;
}

export function field(
  name: string,
  label: string,
  input: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement,
): Field {
  const id = `f-${name}`;
  input.id = id;
  input.name = name;
  const error = h('span', { class: 'field-error', id: `${id}-error`, 'aria-live': 'polite' });
  input.setAttribute('aria-describedby', error.id);
  return {
    name,
    input,
    error,
    wrap: h('div', { class: 'field' }, h('label', { for: id }, label), input, error),
  };
}

/** Shows a problem: each `errors[]` entry next to its field, the rest in `general`. */
export function showProblem(err: unknown, fields: Field[], general: HTMLElement): void {
  for (const f of fields) {
    clear(f.error);
    f.input.removeAttribute('aria-invalid');
  }
  if (!(err instanceof ProblemError)) {
    clear(general, (err as Error).message);
    return;
  }
  const p = err.problem;
  const unplaced: string[] = [];
  for (const e of p.errors ?? []) {
    const f = fields.find((x) => e.path === `/${x.name}` || e.path.startsWith(`/${x.name}/`));
    if (f) {
      f.error.append(`${e.message} `);
      f.input.setAttribute('aria-invalid', 'true');
    } else unplaced.push(`${e.path}: ${e.message}`);
  }
  clear(
    general,
    // The server's detail already says when to retry (429) and names the fields: said once.
    `${p.detail ?? p.title}${unplaced.length ? ` (${unplaced.join('; ')})` : ''}`,
  );
}

export function clearProblem(fields: Field[], general: HTMLElement): void {
  for (const f of fields) {
    clear(f.error);
    f.input.removeAttribute('aria-invalid');
  }
  clear(general);
}
