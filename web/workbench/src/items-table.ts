/**
 * The receipt's items as a sortable table that renders only the rows in view (a 5000-item gate
 * receipt would otherwise be 20,000 DOM cells). Rows have one fixed height.
 */
import { h, clear } from '../../shared/dom';
import { str, type Item } from './api';

const ROW_HEIGHT = 32;
const VIEW_ROWS = 15;
const OVERSCAN = 8;
const OPTIONAL_COLUMNS = ['domain', 'tier', 'branch', 'section', 'command', 'tokens', 'n'];

function cellText(item: Item, column: string): string {
  const value = item[column];
  if (Array.isArray(value)) return value.map(str).join('; ');
  return str(value);
}

export function itemsTable(items: Item[]): HTMLElement {
  if (items.length === 0) return h('p', { class: 'muted' }, 'This receipt has no items.');
  const first = items[0]!;
  const columns = [
    'item_id',
    ...(first.decision !== undefined ? ['decision'] : []),
    ...OPTIONAL_COLUMNS.filter((c) => items.some((i) => i[c] !== undefined && i[c] !== null)).slice(0, 2),
    'reasons',
  ];
  let rows = items.slice();
  let sortColumn = 'item_id';
  let ascending = true;

  const headRow = h('tr');
  const body = h('tbody');
  const scroller = h(
    'div',
    {
      class: 'table-scroll',
      tabindex: 0,
      role: 'region',
      'aria-label': `Items, ${items.length} rows; scroll to see more`,
    },
    h('table', { class: 'items', 'aria-rowcount': items.length + 1 }, h('thead', {}, headRow), body),
  );
  scroller.style.maxHeight = `${ROW_HEIGHT * (VIEW_ROWS + 1) + 2}px`;

  const renderHead = (): void => {
    clear(
      headRow,
      columns.map((c) =>
        h(
          'th',
          { scope: 'col', 'aria-sort': c === sortColumn ? (ascending ? 'ascending' : 'descending') : 'none' },
          h(
            'button',
            { type: 'button', class: 'sort', onclick: () => sortBy(c) },
            `${c}${c === sortColumn ? (ascending ? ' ▲' : ' ▼') : ''}`,
          ),
        ),
      ),
    );
  };
  const spacer = (height: number): HTMLTableRowElement => {
    const td = h('td', { colspan: columns.length, 'aria-hidden': 'true' });
    td.style.height = `${height}px`;
    return h('tr', { class: 'spacer' }, td);
  };
  const renderRows = (): void => {
    const start = Math.max(0, Math.floor(scroller.scrollTop / ROW_HEIGHT) - OVERSCAN);
    const end = Math.min(rows.length, start + VIEW_ROWS + 2 * OVERSCAN);
    clear(
      body,
      start > 0 ? spacer(start * ROW_HEIGHT) : null,
      rows.slice(start, end).map((item, i) =>
        h(
          'tr',
          { 'aria-rowindex': start + i + 2, 'data-item': item.item_id },
          columns.map((c) => {
            const text = cellText(item, c);
            return h(
              'td',
              { title: text.length > 40 ? text : null, class: c === 'decision' ? `d-${text}` : null },
              text,
            );
          }),
        ),
      ),
      end < rows.length ? spacer((rows.length - end) * ROW_HEIGHT) : null,
    );
  };
  const sortBy = (column: string): void => {
    ascending = column === sortColumn ? !ascending : true;
    sortColumn = column;
    const collator = new Intl.Collator(undefined, { numeric: true });
    rows = items.slice().sort((a, b) => {
      const x = a[column];
      const y = b[column];
      const order =
        typeof x === 'number' && typeof y === 'number'
          ? x - y
          : collator.compare(cellText(a, column), cellText(b, column));
      return ascending ? order : -order;
    });
    renderHead();
    renderRows();
  };
  let frame = 0;
  scroller.addEventListener('scroll', () => {
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(renderRows);
  });
  renderHead();
  renderRows();
  return scroller;
}
