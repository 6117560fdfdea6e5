/** SafePatch: the unified diff of the receipt as a side-by-side view, old left, new right. */
import { h } from '../../../shared/dom';
import type { Receipt } from '../api';

interface Row {
  left: string | null;
  right: string | null;
  leftNo: number | null;
  rightNo: number | null;
  kind: 'same' | 'change' | 'hunk';
}

export function sideBySide(diff: string): Row[] {
  const rows: Row[] = [];
  let oldNo = 0;
  let newNo = 0;
  let removed: [number, string][] = [];
  let added: [number, string][] = [];
  const flush = (): void => {
    for (let i = 0; i < Math.max(removed.length, added.length); i++) {
      const l = removed[i];
      const r = added[i];
      rows.push({
        left: l ? l[1] : null,
        right: r ? r[1] : null,
        leftNo: l ? l[0] : null,
        rightNo: r ? r[0] : null,
        kind: 'change',
      });
    }
    removed = [];
    added = [];
  };
  for (const line of diff.split('\n')) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (hunk) {
      flush();
      oldNo = Number(hunk[1]);
      newNo = Number(hunk[2]);
      rows.push({ left: line, right: line, leftNo: null, rightNo: null, kind: 'hunk' });
    } else if (line.startsWith('---') || line.startsWith('+++') || line.startsWith('===') || oldNo === 0) {
      continue;
    } else if (line.startsWith('-')) removed.push([oldNo++, line.slice(1)]);
    else if (line.startsWith('+')) added.push([newNo++, line.slice(1)]);
    else if (line.startsWith(' ')) {
      flush();
      rows.push({
        left: line.slice(1),
        right: line.slice(1),
        leftNo: oldNo++,
        rightNo: newNo++,
        kind: 'same',
      });
    }
  }
  flush();
  return rows;
}

export function safepatchCertificate(receipt: Receipt): Node {
  const diff = typeof receipt.result.diff === 'string' ? receipt.result.diff : '';
  if (!diff) return h('p', {}, 'Nothing changed: no operation was applied.');
  const rows = sideBySide(diff);
  const cell = (text: string | null, no: number | null, side: string, kind: string): HTMLElement[] => [
    h('td', { class: 'no' }, no === null ? '' : String(no)),
    h('td', { class: `code ${kind === 'change' && text !== null ? side : ''} ${kind}` }, text ?? ''),
  ];
  return h(
    'div',
    { class: 'diff-scroll', tabindex: 0, role: 'region', 'aria-label': 'Side-by-side diff' },
    h(
      'table',
      { class: 'diff' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { colspan: 2, scope: 'colgroup' }, 'Before'),
          h('th', { colspan: 2, scope: 'colgroup' }, 'After'),
        ),
      ),
      h(
        'tbody',
        {},
        rows.map((r) =>
          h(
            'tr',
            { class: r.kind },
            cell(r.left, r.leftNo, 'removed', r.kind),
            cell(r.right, r.rightNo, 'added', r.kind),
          ),
        ),
      ),
    ),
  );
}
