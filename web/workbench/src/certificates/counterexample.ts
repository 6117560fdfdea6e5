/** Counterexample: the witness graph drawn on a circle, once per colouring the claim compares. */
import { h, s } from '../../../shared/dom';
import { asArray, asRecord, type Receipt } from '../api';

const PALETTE = [
  '#1f77b4',
  '#ff7f0e',
  '#2ca02c',
  '#d62728',
  '#9467bd',
  '#8c564b',
  '#e377c2',
  '#17becf',
  '#bcbd22',
  '#7f7f7f',
];
const SIZE = 220;

function drawGraph(
  n: number,
  edges: [number, number][],
  colours: number[] | null,
  label: string,
): HTMLElement {
  const r = SIZE / 2 - 22;
  const pos = Array.from({ length: n }, (_, i) => {
    const a = (2 * Math.PI * i) / n - Math.PI / 2;
    return [SIZE / 2 + r * Math.cos(a), SIZE / 2 + r * Math.sin(a)] as const;
  });
  return h(
    'figure',
    { class: 'graph' },
    s(
      'svg',
      { viewBox: `0 0 ${SIZE} ${SIZE}`, role: 'img', 'aria-label': label },
      edges.map(([a, b]) =>
        s('line', { x1: pos[a]![0], y1: pos[a]![1], x2: pos[b]![0], y2: pos[b]![1], class: 'edge' }),
      ),
      pos.map(([x, y], v) =>
        s(
          'g',
          { class: 'vertex', 'data-vertex': v, 'data-colour': colours ? colours[v] : null },
          s('circle', {
            cx: x,
            cy: y,
            r: 11,
            fill: colours ? PALETTE[colours[v]! % PALETTE.length] : '#555',
          }),
          s('text', { x, y: y + 4, 'text-anchor': 'middle' }, String(v)),
          s('title', {}, colours ? `vertex ${v}: colour ${colours[v]}` : `vertex ${v}`),
        ),
      ),
    ),
    h('figcaption', {}, label),
  );
}

/** A witness graph as the counterexample tool and the report card report it. */
export interface WitnessGraph {
  graph6: unknown;
  n: unknown;
  edges: unknown;
  checks: unknown;
}

const setColours = (n: number, members: unknown): number[] => {
  const inSet = new Set(asArray(members).map(Number));
  return Array.from({ length: n }, (_, v) => (inSet.has(v) ? 1 : 0));
};

/**
 * The witness drawn once per colouring its checks compare (greedy and optimal), or once per
 * independent set (greedy and maximum, members in the second colour), else once plain.
 */
export function witnessFigure(witness: WitnessGraph): HTMLElement {
  const n = Number(witness.n);
  const edges = asArray(witness.edges) as [number, number][];
  const checks = asRecord(witness.checks);
  const greedy = asRecord(checks.greedy_colouring);
  const optimal = asRecord(checks.optimal_colouring);
  const greedySet = asRecord(checks.greedy_set);
  const maximumSet = asRecord(checks.maximum_set);
  const head = h('p', {}, `Witness ${String(witness.graph6)}: ${n} vertices, ${edges.length} edges.`);
  if (Array.isArray(greedy.colours) && Array.isArray(optimal.colours)) {
    return h(
      'div',
      { class: 'witness' },
      head,
      h(
        'div',
        { class: 'side-by-side' },
        drawGraph(n, edges, greedy.colours as number[], `Greedy colouring: ${String(greedy.count)} colours`),
        drawGraph(
          n,
          edges,
          optimal.colours as number[],
          `Optimal colouring: ${String(optimal.count)} colours (chromatic number)`,
        ),
      ),
    );
  }
  if (Array.isArray(greedySet.vertices) && Array.isArray(maximumSet.vertices)) {
    return h(
      'div',
      { class: 'witness' },
      head,
      h(
        'div',
        { class: 'side-by-side' },
        drawGraph(
          n,
          edges,
          setColours(n, greedySet.vertices),
          `Greedy independent set: ${String(greedySet.size)} vertices {${greedySet.vertices.join(', ')}}`,
        ),
        drawGraph(
          n,
          edges,
          setColours(n, maximumSet.vertices),
          `Maximum independent set: ${String(maximumSet.size)} vertices {${maximumSet.vertices.join(', ')}} (independence number)`,
        ),
      ),
    );
  }
  return h(
    'div',
    { class: 'witness' },
    head,
    drawGraph(n, edges, null, `${String(checks.antecedent)} holds, ${String(checks.consequent)} does not`),
  );
}

export function counterexampleCertificate(receipt: Receipt): Node {
  const witness = asRecord(receipt.result.witness);
  const restarts = asArray(asRecord(receipt.result.search).restarts).map(asRecord);
  if (!Object.keys(witness).length) {
    return h(
      'div',
      {},
      h('p', {}, 'No counterexample was found within the budget.'),
      h(
        'ul',
        {},
        restarts.map((r) =>
          h(
            'li',
            {},
            `restart ${String(r.restart)} on ${String(r.n)} vertices: best score ${String(r.best_score)} after ${String(r.steps_run)} steps`,
          ),
        ),
      ),
    );
  }
  return witnessFigure(witness as unknown as WitnessGraph);
}
