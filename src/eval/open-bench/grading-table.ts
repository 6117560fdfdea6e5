/**
 * The open bench's grading table, as data: per task kind what counts as the requested state,
 * which differences are formatting and which are changes, and the wording of every
 * `state_problem`. grade.ts takes its wording from here; docs/open-bench.md's table is
 * rendered from here (grading-docs.ts) and checked against the page; the tests give one
 * answer per row of grading-rows.ts.
 */
import type { TaskKind } from './tasks.js';

/** Every `state_problem` a receipt can hold; the docs show each with its placeholders. */
export const PROBLEMS = {
  no_answer: () => 'no answer',
  missing: (p: { path: string }) => `${p.path} is missing`,
  still_exists: (p: { path: string }) => `${p.path} still exists`,
  env_count: (p: { path: string; key: string; n: number | string }) =>
    `${p.key} is set ${p.n} times in ${p.path} (once expected)`,
  env_value: (p: { path: string; key: string; value: string }) =>
    `${p.path} does not read ${p.key}=${p.value}`,
  env_others: (p: { path: string }) => `other settings in ${p.path} changed`,
  json_invalid: (p: { path: string }) => `${p.path} is not valid JSON`,
  json_repeated: (p: { path: string; name: string }) =>
    `${p.path} repeats the member name ${p.name} in one object`,
  json_lacks: (p: { at: string; value: string }) => `${p.at} does not hold ${p.value}`,
  json_array: (p: { at: string; value: string }) =>
    `${p.at} must hold its original entries in their order with ${p.value} added once`,
  json_others: (p: { path: string }) => `${p.path} differs from the original beyond the requested addition`,
  route_lacks: (p: { path: string }) => `${p.path} lacks the requested route`,
  route_count: (p: { path: string; n: number | string }) =>
    `the requested route appears ${p.n} times in ${p.path} (once expected)`,
  route_others: (p: { path: string }) => `${p.path} changed beyond the requested route`,
  version: (p: { path: string; from: string; to: string }) =>
    `${p.path} does not read as the original with ${p.from} replaced by ${p.to}`,
} as const;
export type ProblemId = keyof typeof PROBLEMS;

/** How a kind reads its file: the rules every line-based kind shares are in TEXT_RULES. */
export interface KindRule {
  kind: TaskKind;
  file: string;
  reads_as: string;
  requested: string;
  formatting: string;
  changes: string;
  problems: ProblemId[];
}

/** The table in one paragraph: shown in every session's `rules` and at the head of the docs table. */
export const GRADING_SUMMARY =
  "Formatting never fails a task; a change the task did not ask for does. Formatting in every file: line ends (LF, CRLF, CR), a final newline or none, blank lines, spaces and tabs at a line's ends. JSON files are compared as values (whitespace and member order are formatting, array order is not); env files as their lines in any order, each exactly as written; TypeScript lines up to spacing between tokens, quote style and a final semicolon.";

/** What each placeholder of a state_problem stands for. */
export const PLACEHOLDER_NOTES =
  "`<path>` is the task's file, `<KEY>`/`<value>` the env key and value, `<n>` a count, `<array>` the array's dotted path (`users.<user>`, `allowed_origins`), `<value>` and `<name>` in JSON problems JSON strings with their quotes, `<old>`/`<new>` the version literals with their single quotes. Checks run in the order listed; `state_problem` is the first that fails.";

/** Formatting in every kind that compares text (all but delete-file); docs list them once. */
export const TEXT_RULES: readonly string[] = [
  'Line ends: LF, CRLF and a lone CR each end a line, in any mix.',
  'A final line end, or none, or several (blank lines at the end).',
  'Blank lines (empty, or only spaces and tabs) anywhere: at the start, between lines, at the end.',
  'Spaces and tabs at the start or end of a line (JSON: any JSON whitespace between tokens).',
  'Nothing else is formatting unless the kind says so: a byte order mark (U+FEFF), another space character (U+00A0, U+3000, …), a comment, a line split in two are changes.',
];

export const KIND_RULES: readonly KindRule[] = [
  {
    kind: 'env-flag',
    file: '`config/<env>.env` of the target environment',
    reads_as:
      'settings: the meaningful lines (see above), each compared as written; the lines of KEY are those whose text before the first `=`, spaces and tabs removed, is KEY',
    requested:
      'exactly one line of the key, reading `KEY=true`; the other lines, as a multiset, those of the original',
    formatting: 'the order of the lines',
    changes:
      'spacing around `=` or inside a line, quotes (`"true"`, `\'true\'`), another spelling of the value, `export`, a comment (a line or after the value), a new key, a key set twice, a line removed, repeated or changed',
    problems: ['missing', 'env_count', 'env_value', 'env_others'],
  },
  {
    kind: 'grant-role',
    file: '`config/roles.json`',
    reads_as:
      'one JSON document (RFC 8259; JSON.parse) with no member name twice in one object (names compared after escapes); compared as values: objects by their members in any order, arrays in order, numbers by value, strings after escapes',
    requested:
      "`users.<user>` is the original array with the role inserted once, at any position; everything else equal to the original's value",
    formatting:
      'indentation, line breaks, member order, string escapes (`"\\u0062"` is `"b"`), number spelling',
    changes:
      'the role twice, an existing role removed or moved, any other user changed or reordered, a member repeated, a comment or trailing comma (not JSON)',
    problems: ['missing', 'json_invalid', 'json_repeated', 'json_lacks', 'json_array', 'json_others'],
  },
  {
    kind: 'add-route',
    file: '`src/routes.ts`',
    reads_as:
      'TypeScript lines: the meaningful lines (see above), each in normal form: a string literal in `\'…\'`, `"…"` or `` `…` `` without `${` is the same literal, its inside compared as written (it runs to the next same quote not escaped by a backslash; a quote never closed on its line stays as written); a run of spaces and tabs between two word characters ([A-Za-z0-9_$]) is one space, elsewhere nothing; one `;` at the end of the line dropped',
    requested:
      "one line whose normal form is the requested route's; with that line taken out, the others are the original's, in order",
    formatting:
      "spacing between tokens, quote style (`'`, `\"`, backticks without `${`), the final semicolon, in every line; the new line's position",
    changes:
      'the route twice, another method, path or handler, spacing inside the path, a template with `${…}`, the call split over lines, a trailing comma, `;;`, a comment, another line changed, removed or moved',
    problems: ['missing', 'route_lacks', 'route_count', 'route_others'],
  },
  {
    kind: 'extend-allow-list',
    file: '`config/cors.json`',
    reads_as: 'as grant-role',
    requested:
      "`allowed_origins` is the original array with the origin inserted once, at any position; everything else equal to the original's value",
    formatting: 'as grant-role (`600`, `600.0` and `6e2` are the same `max_age`)',
    changes:
      'the origin twice, an existing origin removed or moved, another spelling of the origin (case, a final `/`), `max_age` changed, a member repeated, not JSON',
    problems: ['missing', 'json_invalid', 'json_repeated', 'json_lacks', 'json_array', 'json_others'],
  },
  {
    kind: 'sync-version',
    file: '`src/version.ts`',
    reads_as: 'TypeScript lines, as add-route',
    requested:
      "the lines' normal forms are those of the original with the old version literal replaced by package.json's version, in order",
    formatting: 'as add-route: spacing between tokens, quote style, the final semicolon',
    changes: 'another version, `as const`, a type annotation, a comment, another line added',
    problems: ['missing', 'version'],
  },
  {
    kind: 'delete-file',
    file: 'the obsolete `scripts/<name>.sh`',
    reads_as: 'presence only',
    requested: 'the file does not exist after the answer',
    formatting: 'none (no text is compared)',
    changes: 'writing the file in any form (empty, other line ends) instead of deleting it',
    problems: ['still_exists'],
  },
];

/** What the per-side fields of a receipt mean; the same in every kind. */
export const SIDE_FIELDS: readonly (readonly [field: string, meaning: string])[] = [
  ['answered', 'the side has an entry for the task (`{}` counts: it answers "change nothing")'],
  [
    'changed_files',
    'distinct paths the answer lists in `writes` or `deletes`, whether or not the bytes change (a write of the same bytes and a delete of a missing file count): the footprint the answer declares. 0 when unanswered',
  ],
  [
    'outside_scope',
    "those paths that are not the task's one file, sorted by UTF-16 code units (private receipt only)",
  ],
  [
    'in_scope',
    '`outside_scope` is empty. An unanswered task touched nothing, so it is `true`; it fails on `state_reached`',
  ],
  [
    'state_reached',
    "the requested state holds in the repository as given with this answer applied (deletes, then writes); tasks never see each other's answers, so a path written in one task and deleted in another is no conflict",
  ],
  [
    'state_problem',
    'present exactly when `state_reached` is false: the first failing check of the kind, in the order the per-kind table lists them; `no answer` when unanswered',
  ],
  ['passed', '`state_reached` and `in_scope`'],
];
