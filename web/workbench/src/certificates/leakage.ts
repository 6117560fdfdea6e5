/** Leakage: counts per evidence tier, then each flagged exam row beside the exposure it matched. */
import { h } from '../../../shared/dom';
import { asArray, asRecord, str, type Receipt } from '../api';

function rowText(row: Record<string, unknown>): string {
  for (const key of ['prompt', 'content', 'expression', 'text', 'id', 'item_id']) {
    if (typeof row[key] === 'string') return `${key}: ${row[key]}`;
  }
  return JSON.stringify(row);
}

export function leakageCertificate(receipt: Receipt, request: unknown): Node {
  const tiers = asRecord(receipt.result.tiers);
  const req = asRecord(request);
  const exam = new Map(asArray(req.exam).map((row) => [String(asRecord(row).item_id), asRecord(row)]));
  const exposure = asArray(req.exposure).map(asRecord);
  const flagged = receipt.items.filter((i) => asArray(i.matches).length > 0);
  return h(
    'div',
    {},
    h(
      'div',
      { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': 'Evidence tiers' },
      h(
        'table',
        { class: 'tiers' },
        h('caption', {}, 'Evidence tiers'),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { scope: 'col' }, 'tier'),
            h('th', { scope: 'col' }, 'quarantined'),
            h('th', { scope: 'col' }, 'review'),
            h('th', { scope: 'col' }, 'enabled'),
          ),
        ),
        h(
          'tbody',
          {},
          Object.entries(tiers).map(([name, t]) => {
            const tier = asRecord(t);
            return h(
              'tr',
              { 'data-tier': name },
              h('th', { scope: 'row' }, name),
              h('td', {}, str(tier.quarantined ?? 0)),
              h('td', {}, str(tier.review ?? 0)),
              h('td', {}, tier.enabled ? 'yes' : 'no'),
            );
          }),
        ),
      ),
    ),
    h('h3', {}, 'Matched pairs'),
    flagged.length === 0
      ? h('p', {}, 'No exam row matched any exposure.')
      : h(
          'div',
          { class: 'pairs' },
          flagged.flatMap((item) =>
            asArray(item.matches).map((m) => {
              const match = asRecord(m);
              const idx = Number(match.exposure_index);
              return h(
                'div',
                { class: `pair ${String(item.decision)}`, 'data-pair': `${item.item_id}:${idx}` },
                h(
                  'div',
                  { class: 'side' },
                  h('strong', {}, `exam ${item.item_id}`),
                  h('p', {}, rowText(exam.get(item.item_id) ?? {})),
                ),
                h(
                  'div',
                  { class: 'side' },
                  h('strong', {}, `exposure[${idx}] ${str(match.source)}`),
                  h('p', {}, rowText(exposure[idx] ?? {})),
                ),
                h(
                  'p',
                  { class: 'why' },
                  `${String(item.tier)} → ${String(item.decision)}${match.score !== undefined ? `, score ${str(match.score)}` : ''}`,
                ),
              );
            }),
          ),
        ),
  );
}
