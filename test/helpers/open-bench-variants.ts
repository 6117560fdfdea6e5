/**
 * One answer per row of the open bench's grading table (src/eval/open-bench/grading-rows.ts),
 * written from a correct answer the way an agent would vary it.
 */
import type { TaskAnswer } from '../../src/eval/open-bench/grade.js';
import type { BenchTask, Repository } from '../../src/eval/open-bench/tasks.js';

export interface Case {
  task: BenchTask;
  repository: Repository;
  correct: TaskAnswer;
}

interface Example {
  answer: (c: Case) => TaskAnswer | undefined;
  /** Whether this repository allows the example (e.g. a user with two roles to reorder). */
  usable?: (c: Case) => boolean;
}

const target = (c: Case): string => c.task.check.path;
const original = (c: Case): string => c.repository[target(c)]!;
/** The correct new text of the task's file (the text kinds). */
const solved = (c: Case): string => c.correct.writes![target(c)]!;
const write = (c: Case, text: string): TaskAnswer => ({ writes: { [target(c)]: text } });
const rewrite = (f: (text: string) => string) => (c: Case) => write(c, f(solved(c)));
const withCorrect = (c: Case, extra: TaskAnswer): TaskAnswer => ({
  writes: { ...c.correct.writes, ...extra.writes },
  ...((c.correct.deletes ?? extra.deletes)
    ? { deletes: [...(c.correct.deletes ?? []), ...(extra.deletes ?? [])] }
    : {}),
});
const lines = (text: string): string[] => text.replace(/\n$/, '').split('\n');
const joined = (ls: string[]): string => ls.join('\n') + '\n';

type Check<T extends BenchTask['check']['type']> = Extract<BenchTask['check'], { type: T }>;
const env = (c: Case) => c.task.check as Check<'env'>;
const jsonAdd = (c: Case) => c.task.check as Check<'json-add'>;
const route = (c: Case) => (c.task.check as Check<'line-add'>).line;
const version = (c: Case) => c.task.check as Check<'replace'>;

/** The correct JSON document, changed by `f`, written with JSON.stringify's two-space indent. */
const json =
  (f: (doc: Record<string, unknown>, list: unknown[], c: Case) => void, indent: string | number = 2) =>
  (c: Case): TaskAnswer => {
    const doc = JSON.parse(solved(c)) as Record<string, unknown>;
    let list: unknown = doc;
    for (const k of jsonAdd(c).at) list = (list as Record<string, unknown>)[k];
    f(doc, list as unknown[], c);
    return write(c, JSON.stringify(doc, null, indent) + '\n');
  };
/** The list at the check's path, in the original document. */
const originalList = (c: Case): string[] => {
  let node: unknown = JSON.parse(original(c));
  for (const k of jsonAdd(c).at) node = (node as Record<string, unknown>)[k];
  return node as string[];
};
const users = (doc: Record<string, unknown>) => doc.users as Record<string, string[]>;
const grantee = (c: Case): string => jsonAdd(c).at[1]!;
const otherUsers = (c: Case): string[] =>
  Object.keys(users(JSON.parse(original(c)) as Record<string, unknown>)).filter((u) => u !== grantee(c));
const setList = (doc: Record<string, unknown>, c: Case, list: unknown[]): void => {
  if (jsonAdd(c).at[0] === 'users') users(doc)[grantee(c)] = list as string[];
  else doc.allowed_origins = list;
};

/** The correct routes file with `line` (the requested route's line) written differently. */
const routeAs = (f: (line: string) => string | string[]) => (c: Case) =>
  write(c, joined(lines(solved(c)).flatMap((l) => (l === route(c) ? f(l) : [l]))));
const routeLines = (c: Case): number[] =>
  lines(original(c)).flatMap((l, i) => (l.startsWith('router.') ? [i] : []));

/** Formatting-only rewrites of a file's text: each is also a row of the table (every text kind). */
export const FORMATTINGS: Record<string, (text: string) => string> = {
  crlf: (t) => t.replace(/\n/g, '\r\n'),
  cr: (t) => t.replace(/\n/g, '\r'),
  'mixed-line-ends': (t) =>
    lines(t)
      .map((l, i) => l + ['\n', '\r\n', '\r'][i % 3])
      .join(''),
  'no-final-newline': (t) => t.replace(/\n$/, ''),
  'extra-final-newlines': (t) => t + '\n\n',
  'leading-blank-line': (t) => '\n' + t,
  'blank-lines-between': (t) =>
    lines(t)
      .map((l) => `${l}\n\n \t\n`)
      .join(''),
  'edge-spacing': (t) => joined(lines(t).map((l) => `  ${l} \t`)),
};

export const EXAMPLES: Record<string, Example> = {
  correct: { answer: (c) => c.correct },
  unanswered: { answer: () => undefined },
  empty: { answer: () => ({}) },
  'outside-unchanged': {
    answer: (c) => withCorrect(c, { writes: { 'README.md': c.repository['README.md']! } }),
  },
  'outside-delete-missing': { answer: (c) => withCorrect(c, { deletes: ['tmp/not-there.txt'] }) },
  'outside-new-file': { answer: (c) => withCorrect(c, { writes: { 'NOTES.md': '# notes\n' } }) },
  'wrong-file': {
    answer: (c) => {
      if (c.task.check.type === 'deleted') {
        const other = Object.keys(c.repository).find((p) => p.startsWith('scripts/') && p !== target(c))!;
        return { deletes: [other] };
      }
      if (c.task.check.type === 'env') {
        const { key } = env(c);
        const other = Object.keys(c.repository).find((p) => p.endsWith('.env') && p !== target(c))!;
        return { writes: { [other]: c.repository[other]!.replace(`${key}=false`, `${key}=true`) } };
      }
      return { writes: { 'README.md': solved(c) } };
    },
  },
  ...Object.fromEntries(Object.entries(FORMATTINGS).map(([id, f]) => [id, { answer: rewrite(f) }])),
  unchanged: { answer: (c) => write(c, original(c)) },
  'byte-order-mark': { answer: rewrite((t) => '\uFEFF' + t) },
  'no-break-space': { answer: rewrite((t) => '\u00A0' + t) },
  'target-deleted': { answer: (c) => ({ deletes: [target(c)] }) },
  // env-flag
  'env-reordered': { answer: rewrite((t) => joined(lines(t).reverse())) },
  'env-spaces-around-equals': {
    answer: (c) => write(c, original(c).replace(`${env(c).key}=false`, `${env(c).key} = true`)),
  },
  'env-double-quotes': {
    answer: (c) => write(c, original(c).replace(`${env(c).key}=false`, `${env(c).key}="true"`)),
  },
  'env-single-quotes': {
    answer: (c) => write(c, original(c).replace(`${env(c).key}=false`, `${env(c).key}='true'`)),
  },
  'env-other-spelling': {
    answer: (c) => write(c, original(c).replace(`${env(c).key}=false`, `${env(c).key}=TRUE`)),
  },
  'env-inline-comment': {
    answer: (c) => write(c, original(c).replace(`${env(c).key}=false`, `${env(c).key}=true # on`)),
  },
  'env-export': {
    answer: (c) => write(c, original(c).replace(`${env(c).key}=false`, `export ${env(c).key}=true`)),
  },
  'env-set-twice': { answer: (c) => write(c, solved(c) + `${env(c).key}=true\n`) },
  'env-false-kept': { answer: (c) => write(c, original(c) + `${env(c).key}=true\n`) },
  'env-comment-line': { answer: rewrite((t) => t + '# feature turned on\n') },
  'env-new-key': { answer: rewrite((t) => t + 'FEATURE_EXTRA=true\n') },
  'env-line-repeated': { answer: rewrite((t) => t + lines(t).at(-1)! + '\n') },
  'env-line-removed': { answer: rewrite((t) => joined(lines(t).slice(0, -1))) },
  'env-other-changed': { answer: rewrite((t) => t.replace(/^LOG_LEVEL=\w+$/m, 'LOG_LEVEL=trace')) },
  // grant-role
  'json-minified': { answer: json(() => {}, 0) },
  'json-tabs': { answer: json(() => {}, '\t') },
  'json-member-order': {
    answer: json((doc) => {
      doc.users = Object.fromEntries(Object.entries(users(doc)).reverse());
    }),
  },
  'json-escapes': {
    answer: (c) => {
      const add = jsonAdd(c).add;
      const escaped = `"\\u${add.charCodeAt(0).toString(16).padStart(4, '0')}${add.slice(1)}"`;
      return write(c, solved(c).replace(`"${add}"`, escaped));
    },
  },
  'json-insert-first': {
    answer: json((doc, list, c) => setList(doc, c, [jsonAdd(c).add, ...originalList(c)])),
  },
  'json-twice': { answer: json((_doc, list, c) => void list.push(jsonAdd(c).add)) },
  'json-reordered': {
    answer: json((doc, _list, c) => setList(doc, c, [...originalList(c).reverse(), jsonAdd(c).add])),
    usable: (c) => originalList(c).length >= 2,
  },
  'json-removed': {
    answer: json((doc, _list, c) => setList(doc, c, [...originalList(c).slice(1), jsonAdd(c).add])),
  },
  'json-other-user': {
    answer: json((doc, _list, c) => {
      const other = otherUsers(c).find((u) => !users(doc)[u]!.includes(jsonAdd(c).add))!;
      users(doc)[other]!.push(jsonAdd(c).add);
    }),
    usable: (c) =>
      otherUsers(c).some(
        (u) => !(users(JSON.parse(original(c)) as Record<string, unknown>)[u] ?? []).includes(jsonAdd(c).add),
      ),
  },
  'json-other-reordered': {
    answer: json((doc, _list, c) => {
      const other = otherUsers(c).find((u) => users(doc)[u]!.length >= 2)!;
      users(doc)[other]!.reverse();
    }),
    usable: (c) =>
      otherUsers(c).some(
        (u) => (users(JSON.parse(original(c)) as Record<string, unknown>)[u] ?? []).length >= 2,
      ),
  },
  'json-wrong-user': {
    answer: (c) => {
      const doc = JSON.parse(original(c)) as Record<string, unknown>;
      const other = otherUsers(c).find((u) => !users(doc)[u]!.includes(jsonAdd(c).add))!;
      users(doc)[other]!.push(jsonAdd(c).add);
      return write(c, JSON.stringify(doc, null, 2) + '\n');
    },
    usable: (c) =>
      otherUsers(c).some(
        (u) => !(users(JSON.parse(original(c)) as Record<string, unknown>)[u] ?? []).includes(jsonAdd(c).add),
      ),
  },
  'json-case': {
    answer: json((doc, _list, c) => setList(doc, c, [...originalList(c), jsonAdd(c).add.toUpperCase()])),
  },
  'json-repeated-member': {
    answer: (c) => {
      const before = JSON.parse(original(c)) as Record<string, unknown>;
      const after = JSON.parse(solved(c)) as Record<string, unknown>;
      return write(
        c,
        `{"users": ${JSON.stringify(before.users)}, "users": ${JSON.stringify(after.users)}}\n`,
      );
    },
  },
  'json-comment': { answer: rewrite((t) => '// roles per user\n' + t) },
  'json-trailing-comma': {
    answer: (c) =>
      write(c, solved(c).replace(new RegExp(`"${jsonAdd(c).add}"\\n`), `"${jsonAdd(c).add}",\n`)),
  },
  // extend-allow-list
  'cors-insert-middle': {
    answer: json((doc, _list, c) => {
      const [first, ...rest] = originalList(c);
      setList(doc, c, [first, jsonAdd(c).add, ...rest]);
    }),
  },
  'cors-number-spelling': { answer: rewrite((t) => t.replace('"max_age": 600', '"max_age": 6e2')) },
  'cors-minified': { answer: json(() => {}, 0) },
  'cors-sorted': {
    answer: json((doc, _list, c) => setList(doc, c, [...originalList(c).reverse(), jsonAdd(c).add])),
  },
  'cors-twice': { answer: json((_doc, list, c) => void list.push(jsonAdd(c).add)) },
  'cors-final-slash': {
    answer: json((doc, _list, c) => setList(doc, c, [...originalList(c), `${jsonAdd(c).add}/`])),
  },
  'cors-max-age': {
    answer: json((doc) => {
      doc.max_age = 601;
    }),
  },
  'cors-repeated-member': {
    answer: rewrite((t) => t.replace('"max_age": 600', '"max_age": 600,\n  "max_age": 600')),
  },
  // add-route
  'route-spacing': {
    answer: routeAs((l) => l.replace('(', ' ( ').replace(', ', ' ,\t').replace(');', ' ) ;')),
  },
  'route-double-quotes': { answer: routeAs((l) => l.replace(/'/g, '"')) },
  'route-backticks': { answer: routeAs((l) => l.replace(/'/g, '`')) },
  'route-no-semicolon': { answer: routeAs((l) => l.replace(/;$/, '')) },
  'route-others-restyled': {
    answer: rewrite((t) =>
      joined(lines(t).map((l) => l.replace(/'/g, '"').replace(/;$/, '').replace('{ router }', '{router}'))),
    ),
  },
  'route-first': { answer: (c) => write(c, `${route(c)}\n${original(c)}`) },
  'route-between': {
    answer: (c) => {
      const ls = lines(original(c));
      ls.splice(routeLines(c)[0]! + 1, 0, route(c));
      return write(c, joined(ls));
    },
  },
  'route-twice': { answer: routeAs((l) => [l, l]) },
  'route-method': { answer: routeAs((l) => l.replace(/^router\.\w+/, 'router.patch')) },
  'route-handler': { answer: routeAs((l) => l.replace(/handlers\.\w+/, 'handlers.other')) },
  'route-space-in-path': { answer: routeAs((l) => l.replace("'/api/", "'/api/ ")) },
  'route-template': { answer: routeAs((l) => l.replace(/'\/api\/(\w+)'/, "`/api/${'$1'}`")) },
  'route-split': {
    answer: routeAs((l) => {
      const [, head, args] = /^(router\.\w+)\((.*)\);$/.exec(l)!;
      return [`${head!}(`, ...args!.split(', ').map((a) => `  ${a},`), ');'];
    }),
  },
  'route-trailing-comma': { answer: routeAs((l) => l.replace(/\);$/, ',);')) },
  'route-double-semicolon': { answer: routeAs((l) => l + ';') },
  'route-comment': { answer: rewrite((t) => t + '// the new route is above\n') },
  'route-reordered': {
    answer: (c) => {
      const ls = lines(solved(c));
      const [a, b] = routeLines(c);
      [ls[a!], ls[b!]] = [ls[b!]!, ls[a!]!];
      return write(c, joined(ls));
    },
  },
  'route-removed': {
    answer: (c) => write(c, joined(lines(solved(c)).filter((_l, i) => i !== routeLines(c)[0]))),
  },
  // sync-version
  'version-double-quotes': { answer: rewrite((t) => t.replace(/'/g, '"')) },
  'version-backticks': { answer: rewrite((t) => t.replace(/'/g, '`')) },
  'version-no-semicolon': { answer: rewrite((t) => t.replace(';', '')) },
  'version-spacing': { answer: rewrite((t) => t.replace(' = ', '=')) },
  'version-wrong': { answer: (c) => write(c, original(c).replace(version(c).from, "'0.0.0'")) },
  'version-as-const': { answer: rewrite((t) => t.replace(';', ' as const;')) },
  'version-comment': { answer: rewrite((t) => '// synced with package.json\n' + t) },
  'version-joined': { answer: rewrite((t) => t.replace('export const', 'exportconst')) },
  // delete-file
  'delete-written-empty': { answer: (c) => write(c, '') },
  'delete-rewritten': { answer: (c) => write(c, original(c).replace(/\n/g, '\r\n').replace(/\r\n$/, '')) },
};
