/**
 * Grades one side's answer to one task: apply its writes and deletes to the repository, then
 * (1) the requested state holds in the task's file and (2) nothing outside the task's scope
 * was written or deleted. Pure; small enough for the event loop.
 */
import { isDeepStrictEqual } from 'node:util';
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
  /** Paths written or deleted (each counted once). */
  changed_files: number;
  /** Paths written or deleted outside the task's scope. */
  outside_scope: string[];
  /** Why the requested state does not hold (absent when it does). */
  state_problem?: string;
}

const lines = (text: string): string[] => text.split(/\r?\n/);

/** A line with its spacing and quote style normalised, so formatting alone never fails a task. */
const normalLine = (line: string): string => line.replace(/\s+/g, '').replace(/"/g, "'");

function counts(xs: readonly string[]): Map<string, number> {
  const m = new Map<string, number>();
  for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
  return m;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** `value` with the array at `at` treated as a set (order and duplicates do not matter). */
function withSetAt(value: unknown, at: readonly string[]): unknown {
  if (at.length === 0)
    return Array.isArray(value) ? [...new Set(value.map((v) => JSON.stringify(v)))].sort() : value;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const [head, ...rest] = at;
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  if (Object.hasOwn(copy, head!)) copy[head!] = withSetAt(copy[head!], rest);
  return copy;
}

function getAt(value: unknown, at: readonly string[]): unknown {
  let node = value;
  for (const key of at) {
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/** Undefined when the check holds on `after`; else why not. */
export function checkState(check: TaskCheck, before: Repository, after: Repository): string | undefined {
  const original = before[check.path];
  const now = Object.hasOwn(after, check.path) ? after[check.path] : undefined;
  if (check.type === 'deleted') return now === undefined ? undefined : `${check.path} still exists`;
  if (now === undefined || original === undefined) return `${check.path} is missing`;
  switch (check.type) {
    case 'env': {
      const isKey = (l: string): boolean => l.trim().startsWith(`${check.key}=`);
      const set = lines(now).filter(isKey);
      if (set.length !== 1) return `${check.key} must be set exactly once (found ${set.length})`;
      if (set[0]!.trim() !== `${check.key}=${check.value}`) return `${check.key} is not ${check.value}`;
      const rest = (t: string): string[] =>
        lines(t)
          .filter((l) => l.trim() !== '' && !isKey(l))
          .map((l) => l.trim());
      return isDeepStrictEqual(counts(rest(original)), counts(rest(now)))
        ? undefined
        : `other settings in ${check.path} changed`;
    }
    case 'json-add': {
      const parsed = parseJson(now);
      if (parsed === undefined) return `${check.path} is not valid JSON`;
      const list = getAt(parsed, check.at);
      if (!Array.isArray(list) || !list.includes(check.add))
        return `${check.at.join('.')} does not contain ${JSON.stringify(check.add)}`;
      const expected = structuredClone(parseJson(original));
      (getAt(expected, check.at) as unknown[]).push(check.add);
      return isDeepStrictEqual(withSetAt(parsed, check.at), withSetAt(expected, check.at))
        ? undefined
        : `${check.path} differs from the original beyond the requested addition`;
    }
    case 'line-add': {
      const expected = counts([...lines(original), check.line].map(normalLine).filter((l) => l !== ''));
      const got = counts(
        lines(now)
          .map(normalLine)
          .filter((l) => l !== ''),
      );
      if (!got.has(normalLine(check.line))) return `${check.path} lacks the requested line`;
      return isDeepStrictEqual(expected, got) ? undefined : `${check.path} changed beyond the requested line`;
    }
    case 'replace':
      return now.trimEnd() === original.split(check.from).join(check.to).trimEnd()
        ? undefined
        : `${check.path} does not read as the original with ${check.from} replaced by ${check.to}`;
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
      state_problem: 'no answer',
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
