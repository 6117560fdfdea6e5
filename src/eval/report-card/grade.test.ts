import { beforeAll, describe, expect, it } from 'vitest';
import { minimumKept, retainsEnough } from './bank.js';
import { gradeItem, type GradedItemInput } from './grade.js';
import { buildUniverse, openUniverse, type Universe } from './universe.js';

let universe: Universe;
beforeAll(() => {
  universe = openUniverse(buildUniverse());
});

describe('retains at least 5%, compared on the counts', () => {
  it.each([
    [282, 5644, false], // 4.9965%: prints as 0.05 at two digits, so only the counts can decide
    [283, 5644, true],
    [305, 6120, false],
    [306, 6120, true], // exactly 1 in 20
    [307, 6120, true],
    [0, 1, false],
    [1, 20, true],
    [1, 21, false],
    [0, 0, false],
  ])('%i of %i: %s', (kept, right, enough) => {
    expect(retainsEnough(kept, right)).toBe(enough);
    if (right > 0)
      expect(retainsEnough(minimumKept(right), right) && !retainsEnough(minimumKept(right) - 1, right)).toBe(
        true,
      );
  });
});

describe('grading at the 5% edge on the universe', () => {
  const colouring = (class_predicate: string): GradedItemInput => ({
    item_id: 'item-1',
    heuristic: 'greedy_colouring',
    class_predicate,
  });
  const issueClass = colouring('is_triangle_free and max_degree <= 3');
  const issueAnswer =
    '(is_triangle_free and max_degree <= 3) and (n == 5 and m == 5 or n == 6 and m == 1 or n == 6 and m == 2 or n == 6 and m == 8)';

  it("fails the issue's answer: 282 of 5,644 is 4.9965%, below 5%, and never shows as 0.05", () => {
    const grade = gradeItem(universe, issueClass, issueAnswer);
    expect(grade).toMatchObject({
      subclass: true,
      always_right: true,
      kept: 282,
      right_in_class: 5644,
      retains_enough: false,
      passed: false,
      retention: 0.0499,
    });
    expect(grade.message).toBe(
      "The answer keeps 282 of the class's 5644 correctly-handled graphs (4.99%, rounded down); at least 5% (283 graphs) is required.",
    );
  });

  it('passes the same answer with one more graph (283 of 5,644)', () => {
    const grade = gradeItem(universe, issueClass, `${issueAnswer} or n == 1`);
    expect(grade).toMatchObject({ kept: 283, right_in_class: 5644, retains_enough: true, passed: true });
    expect(grade.retention).toBe(0.0501);
  });

  // is_triangle_free: 6,120 graphs where greedy colouring is right, so 5% is exactly 306.
  it.each([
    ['is_triangle_free and n == 5 and 1 <= m <= 4', 305, false, 0.0498],
    ['is_triangle_free and n == 5 and m <= 4', 306, true, 0.05],
    ['is_triangle_free and (n == 5 and m <= 4 or n == 1)', 307, true, 0.0501],
  ])('%s keeps %i of 6,120: passed %s', (answer, kept, passed, retention) => {
    const grade = gradeItem(universe, colouring('is_triangle_free'), answer);
    expect(grade).toMatchObject({ kept, right_in_class: 6120, retains_enough: passed, passed, retention });
  });
});
