import { describe, expect, it } from 'vitest';
import { executeTool } from '../../execute.js';
import { memoryExample } from './example.js';
import { runMemory } from './memory.js';
import type { MemoryRecord, MemoryRequest } from './schema.js';
import { greedyFill, spearman } from './selection.js';

const mem = (content: string, extra: Partial<MemoryRecord> = {}): MemoryRecord => ({
  content,
  confidence: 0.8,
  age: 0,
  use_count: 0,
  kind: 'episodic',
  source: 'uploaded',
  ...extra,
});

function run(partial: Partial<MemoryRequest> & Pick<MemoryRequest, 'objective' | 'memories'>) {
  return runMemory({ question_kind: 'generic', token_budget: 90, ...partial });
}

type Parts = { rank: number; score: number };
const item = (r: ReturnType<typeof runMemory>, id: string) => {
  const it = r.items.find((i) => i.item_id === id)!;
  return it as typeof it & { salience: Parts; relevance: Parts & { entity_score: number } };
};

describe('memory rankings', () => {
  it('a memory naming the objective entity outranks an otherwise identical one that does not', () => {
    const r = run({
      objective: 'What is the retry policy of Orion?',
      memories: [
        mem('The retry policy uses exponential backoff.'),
        mem('The retry policy uses exponential backoff.', { entities: ['Orion'] }),
      ],
    });
    expect(item(r, 'm-0002').relevance.score).toBeGreaterThan(item(r, 'm-0001').relevance.score);
    expect(item(r, 'm-0002').relevance.rank).toBe(1);
  });

  it('objective_entities count when the text does not name them', () => {
    const r = run({
      objective: 'summarise the incident',
      objective_entities: ['Orion'],
      memories: [mem('incident notes'), mem('incident notes', { entities: ['orion'] })],
    });
    expect(item(r, 'm-0002').relevance.rank).toBe(1);
  });

  it('a higher-confidence, fresher, more-used memory outranks its twin in salience', () => {
    const twin = 'Deploys happen on Tuesdays.';
    const r = run({
      objective: 'deploys',
      memories: [
        mem(twin, { confidence: 0.6, age: 50, use_count: 0 }),
        mem(twin, { confidence: 0.9, age: 2, use_count: 5 }),
      ],
    });
    expect(item(r, 'm-0002').salience.rank).toBe(1);
    // Each factor alone moves the score too: salience really uses every field.
    for (const change of [{ confidence: 0.9 }, { age: 0 }, { use_count: 3 }, { kind: 'semantic' }]) {
      const s = run({
        objective: 'x',
        memories: [mem(twin, { age: 10 }), mem(twin, { age: 10, ...change })],
      });
      expect(item(s, 'm-0002').salience.score).toBeGreaterThan(item(s, 'm-0001').salience.score);
    }
  });

  it('current_step caps the age', () => {
    const r = run({
      objective: 'x',
      current_step: 5,
      memories: [mem('a', { age: 500 }), mem('a', { age: 5 })],
    });
    expect(item(r, 'm-0001').salience.score).toBe(item(r, 'm-0002').salience.score);
  });

  it('entities already in context lower relevance', () => {
    const base = {
      objective: 'Status of Orion rollout',
      memories: [mem('Orion rollout reached 50 percent.', { entities: ['Orion'] })],
    };
    const fresh = item(run(base), 'm-0001').relevance;
    const known = item(run({ ...base, context_entities: ['Orion'] }), 'm-0001').relevance;
    expect(known.entity_score).toBeLessThan(fresh.entity_score);
    expect(known.score).toBeLessThan(fresh.score);
  });

  it('question_kind shapes relevance; an unknown kind is ranked as generic and said so', () => {
    const memories = [
      mem('Run the deploy script then verify the health check.', { kind: 'procedural' }),
      mem('Run the deploy script then verify the health check.', { kind: 'semantic' }),
    ];
    const how = run({ objective: 'how to deploy the script', question_kind: 'how-to', memories });
    expect(how.result.question_kind).toMatchObject({ applied: 'procedural', known: true });
    expect(item(how, 'm-0001').relevance.rank).toBe(1);
    const fact = run({ objective: 'how to deploy the script', question_kind: 'factual', memories });
    expect(item(fact, 'm-0002').relevance.rank).toBe(1);
    const odd = run({ objective: 'deploy', question_kind: 'astrology', memories });
    expect(odd.result.question_kind).toMatchObject({ applied: 'generic', known: false });
    expect(odd.decision_path[0]).toMatchObject({ rule: 'question_kind', outcome: 'info' });
  });

  it('the budget is never exceeded and greedy fill skips what does not fit', () => {
    const memories = Array.from({ length: 60 }, (_, i) =>
      mem(`deploy note ${i} ` + 'word '.repeat(i % 13), { age: i, use_count: i % 4 }),
    );
    for (const budget of [1, 3, 7, 20, 90, 500]) {
      const r = run({ objective: 'deploy note', memories, token_budget: budget });
      const tokens = (ids: string[]) =>
        ids.reduce((s, id) => s + (r.items.find((i) => i.item_id === id)!.tokens as number), 0);
      const sal = r.result.salience as { selected: string[]; tokens_used: number };
      const rel = r.result.relevance as { selected: string[]; tokens_used: number };
      expect(sal.tokens_used).toBeLessThanOrEqual(budget);
      expect(rel.tokens_used).toBeLessThanOrEqual(budget);
      expect(tokens(sal.selected)).toBe(sal.tokens_used);
      expect(tokens(rel.selected)).toBe(rel.tokens_used);
    }
    const fill = greedyFill(
      [
        { index: 0, score: 3, tokens: 8 },
        { index: 1, score: 2, tokens: 5 },
        { index: 2, score: 1, tokens: 2 },
      ],
      10,
    );
    expect(fill.selected).toEqual([0, 2]);
    expect(fill.skipped.get(1)).toEqual({ reason: 'over_budget', remaining: 2 });
  });

  it('reports overlap, promoted and demoted memories and a rank correlation', () => {
    const r = runMemory(structuredClone(memoryExample));
    expect((r.result.promoted as { item_id: string }[]).map((p) => p.item_id).sort()).toEqual([
      'm-0001',
      'm-0002',
    ]);
    expect((r.result.demoted as { item_id: string }[]).map((d) => d.item_id)).toContain('m-0003');
    expect(typeof (r.result.rank_correlation as { value: number }).value).toBe('number');
    expect(spearman([1, 2, 3], [3, 2, 1])).toBeCloseTo(-1, 12);
    expect(spearman([1, 2, 2, 3], [1, 2, 2, 3])).toBeCloseTo(1, 12);
    expect(spearman([1, 1], [1, 2])).toBeNull();
  });

  it('identical requests give identical receipts', () => {
    const body = JSON.stringify(memoryExample);
    const a = executeTool('memory', Buffer.from(body));
    const b = executeTool('memory', Buffer.from(body));
    expect(a.ok).toBe(true);
    expect(a.ok && b.ok && a.body === b.body).toBe(true);
  });
});

describe('memory input bounds (400)', () => {
  const bad = (body: unknown): string => {
    const out = executeTool('memory', Buffer.from(JSON.stringify(body)));
    if (out.ok) throw new Error('expected a 400');
    expect(out.problem.status).toBe(400);
    return JSON.stringify(out.problem.errors);
  };
  it('1001 memories', () => {
    expect(
      bad({ objective: 'x', memories: Array.from({ length: 1001 }, () => ({ content: 'a' })) }),
    ).toContain('/memories');
  });
  it('unknown memory property', () => {
    expect(bad({ objective: 'x', memories: [{ content: 'a', weight: 2 }] })).toContain('/memories/0/weight');
  });
  it('confidence 1.5', () => {
    expect(bad({ objective: 'x', memories: [{ content: 'a', confidence: 1.5 }] })).toContain(
      '/memories/0/confidence',
    );
  });
  it('101 entities, empty content, token_budget 0, negative age, unknown top-level property', () => {
    expect(
      bad({ objective: 'x', memories: [{ content: 'a', entities: Array.from({ length: 101 }, String) }] }),
    ).toContain('/memories/0/entities');
    expect(bad({ objective: 'x', memories: [{ content: '' }] })).toContain('/memories/0/content');
    expect(bad({ objective: 'x', memories: [{ content: 'a' }], token_budget: 0 })).toContain('/token_budget');
    expect(bad({ objective: 'x', memories: [{ content: 'a', age: -1 }] })).toContain('/memories/0/age');
    expect(bad({ objective: 'x', memories: [{ content: 'a' }], mode: 'fast' })).toContain('/mode');
  });
});

describe('prototype names in request text', () => {
  // Kinds and entities are request text: none may reach an Object.prototype member.
  const PROTO_NAMES = [
    'constructor',
    '__proto__',
    'toString',
    'hasOwnProperty',
    'valueOf',
    '__defineGetter__',
  ];
  type Receipt = {
    result: {
      question_kind: { applied: string; known: boolean };
      kinds: { kind: string; known: boolean; weight: number; boost: number }[];
    };
    items: {
      salience: { score: number; kind: string };
      relevance: { score: number; match: number; prior: number };
    }[];
  };
  const receipt = (body: unknown): Receipt => {
    const out = executeTool('memory', Buffer.from(JSON.stringify(body)));
    if (!out.ok) throw new Error(`expected 200, got ${JSON.stringify(out.problem)}`);
    return JSON.parse(out.body) as Receipt;
  };
  const request = (questionKind: string, memoryKind: string) => ({
    objective: 'What is the retry policy of the billing service?',
    question_kind: questionKind,
    memories: [
      { content: 'The billing service retry policy uses exponential backoff.', kind: memoryKind },
      { content: 'The retry policy was changed last week.', kind: 'semantic' },
      { content: 'Lunch is at noon.', kind: memoryKind },
    ],
  });
  const scores = (r: Receipt) => r.items.map((i) => [i.salience.score, i.relevance.score]);

  it.each(PROTO_NAMES)('question_kind "%s" is ranked as generic, exactly like any unknown kind', (name) => {
    const r = receipt(request(name, 'episodic'));
    expect(r.result.question_kind).toMatchObject({ applied: 'generic', known: false });
    for (const [s, rel] of scores(r)) expect(Number.isFinite(s) && Number.isFinite(rel!)).toBe(true);
    expect(scores(r)).toEqual(scores(receipt(request('no-such-kind', 'episodic'))));
  });

  it.each(PROTO_NAMES)(
    'memory kind "%s" is weighted as unknown with no boost, for every question kind',
    (name) => {
      for (const qk of ['generic', 'factual', 'procedural', 'temporal', 'causal', 'preference']) {
        const r = receipt(request(qk, name));
        const first = r.items[0]!;
        expect(r.result.kinds.find((k) => k.kind === first.salience.kind)).toMatchObject({
          known: false,
          weight: 0.8,
          boost: 1,
        });
        for (const i of r.items)
          for (const v of [i.salience.score, i.relevance.score, i.relevance.match, i.relevance.prior])
            expect(Number.isFinite(v)).toBe(true);
        expect(scores(r)).toEqual(scores(receipt(request(qk, 'no-such-kind'))));
      }
    },
  );

  it('prototype names as entities, context entities and objective words give 200 with finite scores', () => {
    const r = receipt({
      objective: `How does the ${PROTO_NAMES.join(' ')} handler work?`,
      question_kind: '__proto__',
      objective_entities: PROTO_NAMES,
      context_entities: ['__proto__', 'constructor'],
      memories: PROTO_NAMES.map((name) => ({
        content: `The ${name} handler validates input.`,
        kind: name,
        entities: [name, '__proto__'],
      })),
    });
    expect(r.items).toHaveLength(PROTO_NAMES.length);
    for (const i of r.items) {
      expect(Number.isFinite(i.salience.score)).toBe(true);
      expect(Number.isFinite(i.relevance.score)).toBe(true);
      expect(i.relevance.score).toBeGreaterThan(0);
    }
  });
});

describe('the token budget is compared in whole tokens', () => {
  // Two memories of 4 and 5 tokens (whitespace words); the budget is 8, 9 or 10.
  it.each([
    [8, ['m-0001'], 4],
    [9, ['m-0001', 'm-0002'], 9],
    [10, ['m-0001', 'm-0002'], 9],
  ])('budget %i selects %j (%i tokens)', (token_budget, selected, used) => {
    const memories = [mem('deploy note one two', { confidence: 0.9 }), mem('deploy note three four five')];
    const r = run({ objective: 'deploy note', memories, token_budget });
    const sal = r.result.salience as { selected: string[]; tokens_used: number };
    expect(sal).toMatchObject({ selected, tokens_used: used });
    if (token_budget === 8) expect(item(r, 'm-0002').reasons.join('; ')).toContain('needs 5 tokens, 4 left');
  });
});

describe('salience is a floating quantity: where it underflows, the receipt says so', () => {
  it('a memory 148 654 steps old scores 0 and is not taken, and the reason is the age, not the confidence', () => {
    const r = run({
      objective: 'deploy note',
      memories: [mem('deploy note one', { age: 148_653 }), mem('deploy note two', { age: 148_654 })],
    });
    expect(item(r, 'm-0001').salience.score).toBeGreaterThan(0);
    expect(item(r, 'm-0002').salience.score).toBe(0);
    expect(item(r, 'm-0002').reasons.join('; ')).toContain(
      'salience is below the smallest double (0.995^148654 underflows; current_step caps the age)',
    );
  });

  it('a tiny confidence at a modest age underflows as a product, and the reason does not blame the age', () => {
    const r = run({
      objective: 'deploy note',
      memories: [mem('deploy note one', { confidence: 5e-324, age: 200 })],
    });
    expect(0.995 ** 200).toBeGreaterThan(0);
    expect(item(r, 'm-0001').salience.score).toBe(0);
    expect(item(r, 'm-0001').reasons.join('; ')).toContain(
      'salience is below the smallest double (the product confidence 5e-324 × 0.995^200 × usage × kind weight underflows)',
    );
  });
});
