/**
 * The open bench's grading table: docs/open-bench.md shows exactly the table in code, and
 * every row of it is one answer, graded on a freshly drawn repository, for every kind it
 * names (line ends and final newlines in each kind).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gradeSide, type TaskAnswer } from '../src/eval/open-bench/grade.js';
import {
  FIELDS_BEGIN,
  FIELDS_END,
  GRADING_BEGIN,
  GRADING_END,
  problemTemplate,
  renderGradingSection,
  renderPublicReceiptFields,
  sectionContent,
} from '../src/eval/open-bench/grading-docs.js';
import { GRADING_ROWS, type GradingRow } from '../src/eval/open-bench/grading-rows.js';
import { generateBench, TASK_KINDS, type TaskKind } from '../src/eval/open-bench/tasks.js';
import { EXAMPLES, FORMATTINGS, type Case } from './helpers/open-bench-variants.js';
import { solve } from './helpers/open-bench.js';

const ROOT = path.resolve(import.meta.dirname, '..');

function between(text: string, begin: string, end: string): string {
  const a = text.indexOf(begin);
  const b = text.indexOf(end);
  expect(a, begin).toBeGreaterThanOrEqual(0);
  expect(b, end).toBeGreaterThan(a);
  return text.slice(a, b + end.length);
}

describe('docs/open-bench.md', () => {
  const page = readFileSync(path.join(ROOT, 'docs/open-bench.md'), 'utf8');
  it('shows the grading table in code, cell for cell', () => {
    // To refresh the page: write renderGradingSection() between the markers, then prettier --write.
    expect(sectionContent(between(page, GRADING_BEGIN, GRADING_END))).toEqual(
      sectionContent(renderGradingSection()),
    );
  });
  it("lists the public receipt's fields as the code does", () => {
    expect(sectionContent(between(page, FIELDS_BEGIN, FIELDS_END))).toEqual(
      sectionContent(renderPublicReceiptFields()),
    );
  });
});

const kindsOf = (row: GradingRow): TaskKind[] =>
  row.applies === 'every'
    ? [...TASK_KINDS]
    : row.applies === 'text'
      ? TASK_KINDS.filter((k) => k !== 'delete-file')
      : [row.applies];

/** A fresh bench whose task of `kind` the example can be written for (some need two roles). */
function caseFor(kind: TaskKind, rowId: string): Case {
  for (let attempt = 0; attempt < 500; attempt++) {
    const { repository, tasks } = generateBench();
    const task = tasks.find((t) => t.kind === kind)!;
    const correct = solve({ session_id: '', repository: { files: repository }, tasks })[task.task_id]!;
    const c: Case = { task, repository, correct };
    if (EXAMPLES[rowId]!.usable?.(c) ?? true) return c;
  }
  throw new Error(`no repository drawn in 500 attempts suits ${rowId} for ${kind}`);
}

/** The row's state_problem template as a pattern: each placeholder stands for any text. */
function problemPattern(template: string): RegExp {
  const escaped = template.slice(1, -1).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${escaped.replace(/<(?:path|KEY|value|n|array|name|old|new)>/g, '.+')}$`);
}

function expectedProblem(row: GradingRow, kind: TaskKind): string | undefined {
  if (row.problem === undefined) return undefined;
  const id = typeof row.problem === 'string' ? row.problem : row.problem[kind];
  expect(id, `${row.id} names no problem for ${kind}`).toBeDefined();
  return problemTemplate(id!);
}

describe('every row of the grading table, in every kind it names', () => {
  it('has an example answer for each row, and no example without a row', () => {
    expect(Object.keys(EXAMPLES).sort()).toEqual(GRADING_ROWS.map((r) => r.id).sort());
  });

  const cases = GRADING_ROWS.flatMap((row) => kindsOf(row).map((kind) => [row.id, kind, row] as const));
  it.each(cases)('%s (%s)', (_id, kind, row) => {
    const c = caseFor(kind, row.id);
    const answer: TaskAnswer | undefined = EXAMPLES[row.id]!.answer(c);
    const graded = gradeSide(c.task, c.repository, answer);
    const shown = JSON.stringify(answer);
    expect(graded.answered, shown).toBe(answer !== undefined);
    expect({ state_reached: graded.state_reached, in_scope: graded.in_scope }, shown).toEqual({
      state_reached: row.state_reached,
      in_scope: row.in_scope,
    });
    expect(graded.passed).toBe(row.state_reached && row.in_scope);
    const template = expectedProblem(row, kind);
    if (template === undefined) {
      expect(graded.state_problem, shown).toBeUndefined();
    } else {
      expect(graded.state_problem, shown).toMatch(problemPattern(template));
      if (template.includes('<path>')) expect(graded.state_problem).toContain(c.task.check.path);
    }
    const listed = new Set([...Object.keys(answer?.writes ?? {}), ...(answer?.deletes ?? [])]);
    expect(graded.changed_files).toBe(listed.size);
  });
});

describe('formatting on top of any answer changes nothing', () => {
  // Every row's answer that writes the task's file, rewritten by each formatting-only row: the
  // grade is the same, so line ends and final newlines weigh the same with any other difference.
  const writesTarget = (row: GradingRow, kind: TaskKind): boolean => {
    const c = caseFor(kind, row.id);
    return EXAMPLES[row.id]!.answer(c)?.writes?.[c.task.check.path] !== undefined;
  };
  const cases = GRADING_ROWS.flatMap((row) =>
    kindsOf(row)
      .filter((kind) => writesTarget(row, kind))
      .flatMap((kind) => Object.keys(FORMATTINGS).map((f) => [row.id, kind, f] as const)),
  );
  it.each(cases)('%s (%s) with %s', (id, kind, formatting) => {
    const c = caseFor(kind, id);
    const answer = EXAMPLES[id]!.answer(c)!;
    const file = c.task.check.path;
    const restyled = {
      ...answer,
      writes: { ...answer.writes, [file]: FORMATTINGS[formatting]!(answer.writes![file]!) },
    };
    const grade = (a: TaskAnswer) => {
      const g = gradeSide(c.task, c.repository, a);
      return { state_reached: g.state_reached, in_scope: g.in_scope, state_problem: g.state_problem };
    };
    expect(grade(restyled), JSON.stringify(restyled)).toEqual(grade(answer));
  });
});
