/** The tool list, and a receipt drop zone that works for every tool. */
import { h, clear } from '../../shared/dom';
import type { ToolInfo } from './api';
import { verifyPanel } from './verify-panel';

export function renderHome(app: HTMLElement, tools: ToolInfo[], unknownPath: string | null): void {
  document.title = 'Verifier workbench';
  clear(
    app,
    h('h1', {}, 'Verifier tools'),
    unknownPath
      ? h('p', { class: 'error', role: 'alert' }, `No page at ${unknownPath}; pick a tool below.`)
      : null,
    h(
      'ul',
      { class: 'tool-list' },
      tools.map((t) => h('li', {}, h('a', { href: `/tools/${t.id}` }, t.name), h('p', {}, t.promise))),
    ),
    verifyPanel(),
  );
}
