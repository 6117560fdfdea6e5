/**
 * Grades one side's answer to one task: apply its writes and deletes to the repository, then
 * (1) the requested state holds in the task's file and (2) nothing outside the task's scope
 * was written or deleted. Pure; small enough for the event loop.
 */
import { isDeepStrictEqual } from 'node:util';
import { PROBLEMS } from './grading-table.js';
import { codeLine, meaningfulLines, readJson, withoutSpacing } from './reading.js';
import type { BenchTask, Repository, TaskCheck } from './tasks.js';

export interface TaskAnswer {
  writes?: Record<string, string>;
  deletes?: string[];
}

export interface SideGrade {
  answered: boolean;
  passed: boolean;
  state_reached: boolean;
  in_scope: boolean;
  /** Paths written or deleted (each counted once, whether or not the bytes change). */
  changed_files: number;
  /** Paths written or deleted outside the task's scope. */
  outside_scope: string[];
  /** Why the requested state does not hold: present exactly when state_reached is false. */
  state_problem?: string;
}

function getAt(value: unknown, at: readonly string[]): unknown {
  let node = value;
  for (const key of at) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** `value` with the node at `at` (which exists) replaced by `replacement`. */
function withAt(value: unknown, at: readonly string[], replacement: unknown): unknown {
  if (at.length === 0) return replacement;
  const [head, ...rest] = at;
  const copy = { ...(value as Record<string, unknown>) };
  copy[head!] = withAt(copy[head!], rest, replacement);
  return copy;
}

function counts(xs: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return m;
}

/** `xs` without its element at `index`. */
const without = <T>(xs: readonly T[], index: number): T[] => [...xs.slice(0, index), ...xs.slice(index + 1)];

function checkEnv(
  check: Extract<TaskCheck, { type: 'env' }>,
  original: string,
  now: string,
): string | undefined {
  const { path, key, value } = check;
  const isKey = (l: string): boolean => {
    const eq = l.indexOf('=');
    return eq >= 0 && withoutSpacing(l.slice(0, eq)) === key;
  };
  const lines = meaningfulLines(now);
  const set = lines.filter(isKey);
  if (set.length !== 1) return PROBLEMS.env_count({ path, key, n: set.length });
  if (set[0] !== `${key}=${value}`) return PROBLEMS.env_value({ path, key, value });
  const others = (ls: string[]): Map<string, number> => counts(ls.filter((l) => !isKey(l)));
  return isDeepStrictEqual(others(meaningfulLines(original)), others(lines))
    ? undefined
    : PROBLEMS.env_others({ path });
}

function checkJsonAdd(
  check: Extract<TaskCheck, { type: 'json-add' }>,
  original: string,
  now: string,
): string | undefined {
  const { path } = check;
  const read = readJson(now);
  if ('invalid' in read) return PROBLEMS.json_invalid({ path });
  if ('repeated' in read) return PROBLEMS.json_repeated({ path, name: JSON.stringify(read.repeated) });
  const at = check.at.join('.');
  const value = JSON.stringify(check.add);
  const list = getAt(read.value, check.at);
  if (!Array.isArray(list) || !list.includes(check.add)) return PROBLEMS.json_lacks({ at, value });
  const before = JSON.parse(original) as unknown;
  const originalList = getAt(before, check.at) as unknown[];
  const index = list.indexOf(check.add);
  if (list.lastIndexOf(check.add) !== index || !isDeepStrictEqual(without(list, index), originalList))
    return PROBLEMS.json_array({ at, value });
  return isDeepStrictEqual(withAt(read.value, check.at, originalList), before)
    ? undefined
    : PROBLEMS.json_others({ path });
}

function checkLineAdd(
  check: Extract<TaskCheck, { type: 'line-add' }>,
  original: string,
  now: string,
): string | undefined {
  const { path } = check;
  const wanted = codeLine(check.line);
  const got = meaningfulLines(now).map(codeLine);
  const n = got.filter((l) => l === wanted).length;
  if (n === 0) return PROBLEMS.route_lacks({ path });
  if (n > 1) return PROBLEMS.route_count({ path, n });
  return isDeepStrictEqual(without(got, got.indexOf(wanted)), meaningfulLines(original).map(codeLine))
    ? undefined
    : PROBLEMS.route_others({ path });
}

/** Undefined when the check holds on `after`; else why not (worded as in grading-table.ts). */
export function checkState(check: TaskCheck, before: Repository, after: Repository): string | undefined {
  const { path } = check;
  const original = before[path];
  const now = Object.hasOwn(after, path) ? after[path] : undefined;
  if (check.type === 'deleted') return now === undefined ? undefined : PROBLEMS.still_exists({ path });
  if (now === undefined || original === undefined) return PROBLEMS.missing({ path });
  switch (check.type) {
    case 'env':
      return checkEnv(check, original, now);
    case 'json-add':
      return checkJsonAdd(check, original, now);
    case 'line-add':
      return checkLineAdd(check, original, now);
    case 'replace': {
      const expected = meaningfulLines(original.split(check.from).join(check.to)).map(codeLine);
      return isDeepStrictEqual(meaningfulLines(now).map(codeLine), expected)
        ? undefined
        : PROBLEMS.version({ path, from: check.from, to: check.to });
    }
  }
}

export function gradeSide(
  task: BenchTask,
  repository: Repository,
  answer: TaskAnswer | undefined,
): SideGrade {
  if (answer === undefined)
    return {
      answered: false,
      passed: false,
      state_reached: false,
      in_scope: true,
      changed_files: 0,
      outside_scope: [],
      state_problem: PROBLEMS.no_answer(),
    };
  const writes = answer.writes ?? {};
  const deletes = answer.deletes ?? [];
  const touched = [...new Set([...Object.keys(writes), ...deletes])].sort();
  const outside = touched.filter((p) => !task.scope.includes(p));
  // No prototype: a path such as "__proto__" is an ordinary file name here.
  const after = Object.assign(Object.create(null) as Repository, repository);
  for (const p of deletes) delete after[p];
  for (const [p, content] of Object.entries(writes)) after[p] = content;
  const problem = checkState(task.check, repository, after);
  return {
    answered: true,
    passed: problem === undefined && outside.length === 0,
    state_reached: problem === undefined,
    in_scope: outside.length === 0,
    changed_files: touched.length,
    outside_scope: outside,
    ...(problem !== undefined ? { state_problem: problem } : {}),
  };
}
