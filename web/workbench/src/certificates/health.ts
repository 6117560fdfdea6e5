/** Health: item classes per domain as stacked bars, with the readiness index. */
import { h, s } from '../../../shared/dom';
import { asArray, asRecord, type Receipt } from '../api';

const CLASSES = ['discriminating', 'flat', 'saturated', 'too_hard', 'flaky', 'under_observed', 'unmeasured'];
const W = 320;

export function healthCertificate(receipt: Receipt): Node {
  const domains = asArray(receipt.result.domains).map(asRecord);
  const readiness = asRecord(receipt.result.readiness);
  return h(
    'div',
    {},
    h(
      'p',
      {},
      `Readiness index ${String(readiness.index)} (${String(readiness.band)}); frontier gaps: ${asArray(receipt.result.frontier_gaps).join(', ') || 'none'}.`,
    ),
    h(
      'p',
      { class: 'legend' },
      CLASSES.map((c) => h('span', { class: `key c-${c}` }, c.replace('_', ' '))),
    ),
    domains.map((d) => {
      const classes = asRecord(d.classes);
      const total = Number(d.items) || 1;
      let x = 0;
      return h(
        'figure',
        { class: 'domain-bars', 'data-domain': String(d.domain) },
        h(
          'figcaption',
          {},
          h('strong', {}, String(d.domain)),
          ` · ${String(d.items)} items${d.frontier_gap ? ' · frontier gap' : ''}`,
        ),
        s(
          'svg',
          {
            viewBox: `0 0 ${W} 18`,
            role: 'img',
            'aria-label': `${String(d.domain)}: ${CLASSES.filter((c) => Number(classes[c]))
              .map((c) => `${String(classes[c])} ${c}`)
              .join(', ')}`,
          },
          CLASSES.flatMap((c) => {
            const count = Number(classes[c] ?? 0);
            if (!count) return [];
            const width = (count / total) * W;
            const rect = s(
              'rect',
              { x, y: 0, width, height: 18, class: `c-${c}` },
              s('title', {}, `${count} ${c}`),
            );
            x += width;
            return [rect];
          }),
        ),
      );
    }),
  );
}
