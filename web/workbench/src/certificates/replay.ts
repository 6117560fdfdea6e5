/** Replay: the branch tree (forks at checkpoints) and every event on a timeline, lane per branch. */
import { h, s } from '../../../shared/dom';
import { asArray, asRecord, str, type Receipt } from '../api';

export function replayCertificate(receipt: Receipt): Node {
  const tree = asRecord(receipt.result.branch_tree);
  const branches = asArray(tree.branches).map(asRecord);
  const byId = new Map(branches.map((b) => [String(b.id), b]));
  const finalBranch = String(tree.final_branch);
  const node = (id: string): HTMLElement => {
    const b = byId.get(id) ?? {};
    return h(
      'li',
      {
        role: 'treeitem',
        'aria-expanded': asArray(b.children).length ? 'true' : null,
        class: id === finalBranch ? 'final' : null,
        'data-branch': id,
      },
      h('strong', {}, id),
      ` ${String(b.events)} events, ${String(b.first_event)}–${String(b.last_event)}`,
      b.checkpoint ? ` · from checkpoint “${str(b.checkpoint)}” at ${String(b.fork_event)}` : '',
      b.note ? h('em', {}, ` — ${str(b.note)}`) : null,
      id === finalBranch ? h('span', { class: 'badge' }, 'final') : null,
      asArray(b.children).length
        ? h(
            'ul',
            { role: 'group' },
            asArray(b.children).map((c) => node(String(c))),
          )
        : null,
    );
  };
  const lanes = branches.map((b) => String(b.id));
  const step = 44;
  const laneH = 36;
  const width = Math.max(1, receipt.items.length) * step + 70;
  const events = receipt.items;
  return h(
    'div',
    {},
    h('h3', {}, 'Branch tree'),
    h('ul', { role: 'tree', class: 'branch-tree', 'aria-label': 'Branch tree' }, node(String(tree.root))),
    h('h3', {}, 'Timeline'),
    h(
      'div',
      { class: 'timeline-scroll', tabindex: 0, role: 'region', 'aria-label': 'Timeline, scrolls sideways' },
      s(
        'svg',
        {
          viewBox: `0 0 ${width} ${lanes.length * laneH + 10}`,
          width,
          role: 'img',
          'aria-label': `Timeline of ${events.length} events over ${lanes.length} branches`,
        },
        lanes.map((lane, i) => s('text', { x: 4, y: i * laneH + 24, class: 'lane' }, lane)),
        events.map((e, i) => {
          const lane = Math.max(0, lanes.indexOf(String(e.branch)));
          const x = 70 + i * step;
          const y = lane * laneH + 20;
          return s(
            'g',
            { class: `event ${String(e.decision)}`, 'data-event': e.item_id },
            s('circle', { cx: x, cy: y, r: 9 }),
            s('text', { x, y: y + 22, 'text-anchor': 'middle' }, e.item_id.replace(/^e-0*/, '')),
            s(
              'title',
              {},
              `${e.item_id} (${String(e.branch)}, ${String(e.decision)}): ${str(e.command ?? 'model output')}`,
            ),
          );
        }),
      ),
    ),
    h(
      'p',
      { class: 'legend' },
      h('span', { class: 'key kept' }, 'kept'),
      h('span', { class: 'key discarded' }, 'discarded by a rewind'),
    ),
  );
}
