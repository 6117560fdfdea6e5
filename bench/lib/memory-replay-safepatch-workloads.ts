/**
 * Deterministic request bodies for bench/memory.ts, bench/replay.ts and bench/safepatch.ts: memory with 1000
 * memories, replay with 5000 events, safepatch on a 200,000-character document with 50
 * operations. Realistic shapes, seeded, no randomness between runs.
 */
import { lcg } from '../../src/eval/math/lcg.testing.js';

const WORDS = (
  'deploy rollout service billing invoice account currency retry policy backoff queue worker cache ' +
  'latency error budget incident review owner team release version schema migration database index ' +
  'request response timeout limit quota customer region cluster node replica leader follower shard ' +
  'alert page runbook dashboard metric trace log span sample window threshold baseline regression ' +
  'test suite flaky fixture mock contract endpoint route handler payload header token session'
).split(' ');
const GLUE = 'the a of to in and is was for with on after before when because so that it'.split(' ');
const ENTITIES = Array.from(
  { length: 200 },
  (_, i) =>
    `${['Orion', 'Vega', 'Lyra', 'Atlas', 'Nova'][i % 5]} ${['Billing', 'Search', 'Auth', 'Ledger'][i % 4]} ${i}`,
);
const KINDS = ['episodic', 'semantic', 'procedural', 'preference', 'reflection', 'summary'];

function sentence(rnd: () => number, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++)
    out.push(rnd() < 0.3 ? GLUE[Math.floor(rnd() * GLUE.length)]! : WORDS[Math.floor(rnd() * WORDS.length)]!);
  return out.join(' ');
}

export function memoryBody(): string {
  const rnd = lcg(11);
  const memories = Array.from({ length: 1000 }, () => {
    const ents = Array.from(
      { length: 1 + Math.floor(rnd() * 4) },
      () => ENTITIES[Math.floor(rnd() * ENTITIES.length)]!,
    );
    return {
      content: `${sentence(rnd, 10 + Math.floor(rnd() * 40))} ${rnd() < 0.3 ? ents[0] : ''}`.trim(),
      entities: ents,
      confidence: Math.round(rnd() * 100) / 100,
      age: Math.floor(rnd() * 500),
      use_count: Math.floor(rnd() * 20),
      kind: KINDS[Math.floor(rnd() * KINDS.length)]!,
    };
  });
  return JSON.stringify({
    objective: `Why did the ${ENTITIES[3]} rollout miss its latency budget after the ${ENTITIES[17]} migration?`,
    memories,
    context_entities: [ENTITIES[17]!],
    objective_entities: [ENTITIES[42]!],
    current_step: 300,
    question_kind: 'causal',
    token_budget: 400,
  });
}

const EXPRESSIONS = [
  'is_connected and is_triangle_free => is_bipartite',
  'is_tree => is_bipartite',
  '2 <= max_degree <= 4 and n >= 6',
  'is_forest and not is_connected',
  'chromatic_number == greedy_colors',
  'n - m + num_components >= 1',
];

export function replayBody(): string {
  const rnd = lcg(5);
  const events: { kind: string; detail: string; step: number; source: string }[] = [];
  const saved: string[] = [];
  let step = 0;
  while (events.length < 5000) {
    step += 1 + Math.floor(rnd() * 3);
    const r = rnd();
    let ev: { kind: string; detail: string };
    if (r < 0.04) {
      const name = `cp${saved.length}`;
      saved.push(name);
      ev = { kind: 'control', detail: `SAVE ${name}` };
    } else if (r < 0.06 && saved.length > 0) {
      const name = saved[Math.floor(rnd() * saved.length)]!;
      ev = { kind: 'control', detail: `LOAD ${name} :: ${sentence(rnd, 6)}` };
    } else if (r < 0.16) {
      ev = { kind: 'control', detail: `CHECK ${EXPRESSIONS[Math.floor(rnd() * EXPRESSIONS.length)]!}` };
    } else if (r < 0.2) {
      ev = { kind: 'control', detail: `ANSWER ${EXPRESSIONS[Math.floor(rnd() * EXPRESSIONS.length)]!}` };
    } else if (r < 0.3) {
      ev = { kind: 'verifier', detail: rnd() < 0.5 ? 'ACCEPT' : `REJECT: ${sentence(rnd, 5)}` };
    } else if (r < 0.35) {
      ev = { kind: 'control', detail: `SKETCH ${sentence(rnd, 8)}` };
    } else {
      ev = { kind: rnd() < 0.5 ? 'model' : 'observation', detail: sentence(rnd, 12) };
    }
    events.push({ ...ev, step, source: 'native' });
  }
  return JSON.stringify({
    events,
    notes: Array.from({ length: 50 }, (_, i) => `note ${i}: ${sentence(rnd, 10)}`),
  });
}

/** A 200,000-character document of ~400 sections (prose, lists, fenced code, setext headings). */
export function safepatchBody(): string {
  const rnd = lcg(3);
  const parts: string[] = ['Preamble before any heading.\n\n'];
  let length = parts[0]!.length;
  const targets: { heading: string; find: string }[] = [];
  for (let i = 0; length < 200_000; i++) {
    const heading = `Section ${i} ${WORDS[i % WORDS.length]}`;
    const marker = `Unique marker sentence number ${i} stays here.`;
    const body =
      (i % 7 === 3 ? `${heading}\n${'='.repeat(heading.length)}\n\n` : `## ${heading}\n\n`) +
      `${sentence(rnd, 40)}. ${marker} See [REQ-${i}] and v1.${i}.0 in the Acme Billing Service.\n\n` +
      `- ${sentence(rnd, 8)}\n- ${sentence(rnd, 8)}\n\n` +
      (i % 3 === 0 ? '```sh\n# not a heading\nmake deploy\n```\n\n' : '') +
      `${sentence(rnd, 30)}.\n\n`;
    parts.push(body);
    length += body.length;
    targets.push({ heading, find: marker });
  }
  const document = parts.join('').slice(0, 200_000);
  // Targets spread over the whole document, each fully inside the truncated text.
  const usable = targets.filter((t) => document.includes(t.find));
  const stride = Math.floor(usable.length / 50);
  const operations = Array.from({ length: 50 }, (_, k) => {
    const t = usable[k * stride]!;
    return { target_heading: t.heading, find: t.find, replace: t.find.replace('stays here', 'is revised') };
  });
  return JSON.stringify({ document, operations, reason: 'benchmark' });
}
