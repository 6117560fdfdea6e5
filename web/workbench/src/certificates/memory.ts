/** Memory: the salience and relevance rankings side by side, promoted and demoted marked. */
import { h } from '../../../shared/dom';
import { asArray, asRecord, type Item, type Receipt } from '../api';

function ranking(
  title: string,
  items: Item[],
  key: 'salience' | 'relevance',
  selected: Set<string>,
  marks: Map<string, string>,
  texts: Map<string, string>,
): HTMLElement {
  const sorted = items.slice().sort((a, b) => Number(asRecord(a[key]).rank) - Number(asRecord(b[key]).rank));
  return h(
    'div',
    { class: 'ranking', 'data-ranking': key },
    h('h3', {}, title),
    h(
      'ol',
      {},
      sorted.map((item) => {
        const mark = marks.get(item.item_id);
        return h(
          'li',
          {
            class: `${selected.has(item.item_id) ? 'selected' : ''} ${mark ?? ''}`.trim(),
            'data-item': item.item_id,
          },
          h('strong', {}, item.item_id),
          selected.has(item.item_id) ? h('span', { class: 'badge' }, 'selected') : null,
          mark ? h('span', { class: `badge ${mark}` }, mark) : null,
          ` score ${Number(asRecord(item[key]).score).toFixed(3)} · ${String(item.tokens)} tokens`,
          texts.has(item.item_id) ? h('p', { class: 'muted' }, texts.get(item.item_id)) : null,
        );
      }),
    ),
  );
}

export function memoryCertificate(receipt: Receipt, request: unknown): Node {
  const r = receipt.result;
  const marks = new Map<string, string>();
  for (const p of asArray(r.promoted)) marks.set(String(asRecord(p).item_id), 'promoted');
  for (const d of asArray(r.demoted)) marks.set(String(asRecord(d).item_id), 'demoted');
  const ids = (v: unknown): Set<string> => new Set(asArray(asRecord(v).selected).map(String));
  const texts = new Map<string, string>();
  asArray(asRecord(request).memories).forEach((m, i) => {
    const mem = asRecord(m);
    const id = typeof mem.id === 'string' ? mem.id : `m-${String(i + 1).padStart(4, '0')}`;
    if (typeof mem.content === 'string') texts.set(id, mem.content);
  });
  return h(
    'div',
    {},
    h(
      'p',
      {},
      `Spearman ρ between the two scores: ${String(asRecord(r.rank_correlation).value)}; selected by both: ${asArray(asRecord(r.overlap).selected_by_both).join(', ') || 'none'}.`,
    ),
    h(
      'div',
      { class: 'side-by-side' },
      ranking('Salience (query-free)', receipt.items, 'salience', ids(r.salience), marks, texts),
      ranking(
        'Relevance (objective-conditioned)',
        receipt.items,
        'relevance',
        ids(r.relevance),
        marks,
        texts,
      ),
    ),
  );
}
