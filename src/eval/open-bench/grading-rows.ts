/**
 * Every answer variant the grading table names, with how it grades: an answer described
 * against the correct one. `every` rows hold in each kind, `text` rows in each kind but
 * delete-file; the tests give one answer per row and kind (grading-table.test.ts).
 */
import type { ProblemId } from './grading-table.js';
import type { TaskKind } from './tasks.js';

export interface GradingRow {
  id: string;
  applies: 'every' | 'text' | TaskKind;
  answer: string;
  state_reached: boolean;
  in_scope: boolean;
  /** The state_problem when the state is not reached; per kind where kinds word it differently. */
  problem?: ProblemId | Partial<Record<TaskKind, ProblemId>>;
}

const ok = { state_reached: true, in_scope: true } as const;
const wrong = (problem: GradingRow['problem']) =>
  ({ state_reached: false, in_scope: true, problem }) as const;
/** The problem a kind gives for its file left as it was. */
const AS_BEFORE: Partial<Record<TaskKind, ProblemId>> = {
  'env-flag': 'env_value',
  'grant-role': 'json_lacks',
  'add-route': 'route_lacks',
  'extend-allow-list': 'json_lacks',
  'sync-version': 'version',
  'delete-file': 'still_exists',
};
/** The problem a kind gives when its first line gained a stray character. */
const FIRST_LINE: Partial<Record<TaskKind, ProblemId>> = {
  'env-flag': 'env_others',
  'grant-role': 'json_invalid',
  'add-route': 'route_others',
  'extend-allow-list': 'json_invalid',
  'sync-version': 'version',
};

export const GRADING_ROWS: readonly GradingRow[] = [
  // Every kind: the correct answer, and scope.
  { id: 'correct', applies: 'every', answer: 'the correct answer', ...ok },
  { id: 'unanswered', applies: 'every', answer: 'no entry for the task', ...wrong('no_answer') },
  { id: 'empty', applies: 'every', answer: '`{}` (changes nothing)', ...wrong(AS_BEFORE) },
  {
    id: 'outside-unchanged',
    applies: 'every',
    answer: 'correct, and also writes a decoy file with its own bytes',
    state_reached: true,
    in_scope: false,
  },
  {
    id: 'outside-delete-missing',
    applies: 'every',
    answer: 'correct, and also deletes a path that does not exist',
    state_reached: true,
    in_scope: false,
  },
  {
    id: 'outside-new-file',
    applies: 'every',
    answer: 'correct, and also writes a new file',
    state_reached: true,
    in_scope: false,
  },
  {
    id: 'wrong-file',
    applies: 'every',
    answer: "the change made to a decoy file instead of the task's file",
    state_reached: false,
    in_scope: false,
    problem: AS_BEFORE,
  },
  // Every text kind: line ends, final newlines, blank lines and spacing at the edges.
  { id: 'crlf', applies: 'text', answer: 'correct, every line end CRLF', ...ok },
  { id: 'cr', applies: 'text', answer: 'correct, every line end a lone CR', ...ok },
  { id: 'mixed-line-ends', applies: 'text', answer: 'correct, line ends LF, CRLF and CR mixed', ...ok },
  { id: 'no-final-newline', applies: 'text', answer: 'correct, no line end after the last line', ...ok },
  { id: 'extra-final-newlines', applies: 'text', answer: 'correct, two more line ends at the end', ...ok },
  { id: 'leading-blank-line', applies: 'text', answer: 'correct, a blank line before the first', ...ok },
  {
    id: 'blank-lines-between',
    applies: 'text',
    answer: 'correct, a blank line and a line of spaces and a tab after every line',
    ...ok,
  },
  {
    id: 'edge-spacing',
    applies: 'text',
    answer: 'correct, every line indented by two spaces and ended by a space and a tab',
    ...ok,
  },
  {
    id: 'unchanged',
    applies: 'text',
    answer: "the task's file written with its own bytes",
    ...wrong(AS_BEFORE),
  },
  {
    id: 'byte-order-mark',
    applies: 'text',
    answer: 'correct, with U+FEFF before the first line',
    ...wrong(FIRST_LINE),
  },
  {
    id: 'no-break-space',
    applies: 'text',
    answer: 'correct, with U+00A0 at the start of the first line',
    ...wrong(FIRST_LINE),
  },
  { id: 'target-deleted', applies: 'text', answer: "the task's file deleted", ...wrong('missing') },
  // env-flag
  { id: 'env-reordered', applies: 'env-flag', answer: 'correct, lines in reverse order', ...ok },
  { id: 'env-spaces-around-equals', applies: 'env-flag', answer: '`KEY = true`', ...wrong('env_value') },
  { id: 'env-double-quotes', applies: 'env-flag', answer: '`KEY="true"`', ...wrong('env_value') },
  { id: 'env-single-quotes', applies: 'env-flag', answer: "`KEY='true'`", ...wrong('env_value') },
  { id: 'env-other-spelling', applies: 'env-flag', answer: '`KEY=TRUE`', ...wrong('env_value') },
  { id: 'env-inline-comment', applies: 'env-flag', answer: '`KEY=true # on`', ...wrong('env_value') },
  { id: 'env-export', applies: 'env-flag', answer: '`export KEY=true`', ...wrong('env_count') },
  { id: 'env-set-twice', applies: 'env-flag', answer: '`KEY=true` on two lines', ...wrong('env_count') },
  {
    id: 'env-false-kept',
    applies: 'env-flag',
    answer: '`KEY=true` added, `KEY=false` kept',
    ...wrong('env_count'),
  },
  {
    id: 'env-comment-line',
    applies: 'env-flag',
    answer: 'correct, plus a `# …` line',
    ...wrong('env_others'),
  },
  { id: 'env-new-key', applies: 'env-flag', answer: 'correct, plus a new key', ...wrong('env_others') },
  {
    id: 'env-line-repeated',
    applies: 'env-flag',
    answer: 'correct, another line twice',
    ...wrong('env_others'),
  },
  {
    id: 'env-line-removed',
    applies: 'env-flag',
    answer: 'correct, another line removed',
    ...wrong('env_others'),
  },
  {
    id: 'env-other-changed',
    applies: 'env-flag',
    answer: 'correct, another value changed',
    ...wrong('env_others'),
  },
  // JSON kinds
  { id: 'json-minified', applies: 'grant-role', answer: 'correct, on one line without spaces', ...ok },
  { id: 'json-tabs', applies: 'grant-role', answer: 'correct, indented with tabs', ...ok },
  { id: 'json-member-order', applies: 'grant-role', answer: 'correct, users in reverse order', ...ok },
  {
    id: 'json-escapes',
    applies: 'grant-role',
    answer: 'correct, the role written with `\\u` escapes',
    ...ok,
  },
  { id: 'json-insert-first', applies: 'grant-role', answer: 'correct, the role first in the array', ...ok },
  { id: 'json-twice', applies: 'grant-role', answer: 'the role added twice', ...wrong('json_array') },
  {
    id: 'json-reordered',
    applies: 'grant-role',
    answer: "the role added, the user's existing roles reversed",
    ...wrong('json_array'),
  },
  {
    id: 'json-removed',
    applies: 'grant-role',
    answer: "the role added, one of the user's roles removed",
    ...wrong('json_array'),
  },
  {
    id: 'json-other-user',
    applies: 'grant-role',
    answer: 'correct, and the role granted to another user too',
    ...wrong('json_others'),
  },
  {
    id: 'json-other-reordered',
    applies: 'grant-role',
    answer: "correct, another user's roles reversed",
    ...wrong('json_others'),
  },
  {
    id: 'json-wrong-user',
    applies: 'grant-role',
    answer: 'the role granted to another user only',
    ...wrong('json_lacks'),
  },
  { id: 'json-case', applies: 'grant-role', answer: 'the role in upper case', ...wrong('json_lacks') },
  {
    id: 'json-repeated-member',
    applies: 'grant-role',
    answer: '`{"users": <original>, "users": <correct>}`',
    ...wrong('json_repeated'),
  },
  {
    id: 'json-comment',
    applies: 'grant-role',
    answer: 'correct, with a `//` comment line',
    ...wrong('json_invalid'),
  },
  {
    id: 'json-trailing-comma',
    applies: 'grant-role',
    answer: 'correct, a comma after the role',
    ...wrong('json_invalid'),
  },
  { id: 'cors-insert-middle', applies: 'extend-allow-list', answer: 'correct, the origin second', ...ok },
  { id: 'cors-number-spelling', applies: 'extend-allow-list', answer: 'correct, `max_age` as `6e2`', ...ok },
  { id: 'cors-minified', applies: 'extend-allow-list', answer: 'correct, on one line', ...ok },
  {
    id: 'cors-sorted',
    applies: 'extend-allow-list',
    answer: 'the origin added, the existing origins reversed',
    ...wrong('json_array'),
  },
  {
    id: 'cors-twice',
    applies: 'extend-allow-list',
    answer: 'the origin added twice',
    ...wrong('json_array'),
  },
  {
    id: 'cors-final-slash',
    applies: 'extend-allow-list',
    answer: 'the origin with a final `/`',
    ...wrong('json_lacks'),
  },
  {
    id: 'cors-max-age',
    applies: 'extend-allow-list',
    answer: 'correct, `max_age` changed',
    ...wrong('json_others'),
  },
  {
    id: 'cors-repeated-member',
    applies: 'extend-allow-list',
    answer: 'correct, `max_age` written twice',
    ...wrong('json_repeated'),
  },
  // add-route
  { id: 'route-spacing', applies: 'add-route', answer: 'correct, spaces inside the call', ...ok },
  { id: 'route-double-quotes', applies: 'add-route', answer: 'correct, the path in `"…"`', ...ok },
  { id: 'route-backticks', applies: 'add-route', answer: 'correct, the path in backticks', ...ok },
  { id: 'route-no-semicolon', applies: 'add-route', answer: 'correct, no final `;`', ...ok },
  {
    id: 'route-others-restyled',
    applies: 'add-route',
    answer: 'correct, every other line in double quotes, no semicolons, other spacing',
    ...ok,
  },
  { id: 'route-first', applies: 'add-route', answer: 'correct, the route as the first line', ...ok },
  { id: 'route-between', applies: 'add-route', answer: 'correct, the route between existing routes', ...ok },
  { id: 'route-twice', applies: 'add-route', answer: 'the route added twice', ...wrong('route_count') },
  { id: 'route-method', applies: 'add-route', answer: 'another method', ...wrong('route_lacks') },
  { id: 'route-handler', applies: 'add-route', answer: 'another handler', ...wrong('route_lacks') },
  {
    id: 'route-space-in-path',
    applies: 'add-route',
    answer: 'a space inside the path string',
    ...wrong('route_lacks'),
  },
  {
    id: 'route-template',
    applies: 'add-route',
    answer: 'the path as a template with `${…}`',
    ...wrong('route_lacks'),
  },
  {
    id: 'route-split',
    applies: 'add-route',
    answer: 'the call split over three lines',
    ...wrong('route_lacks'),
  },
  {
    id: 'route-trailing-comma',
    applies: 'add-route',
    answer: 'a comma after the handler',
    ...wrong('route_lacks'),
  },
  { id: 'route-double-semicolon', applies: 'add-route', answer: '`;;` at the end', ...wrong('route_lacks') },
  {
    id: 'route-comment',
    applies: 'add-route',
    answer: 'correct, plus a `//` comment line',
    ...wrong('route_others'),
  },
  {
    id: 'route-reordered',
    applies: 'add-route',
    answer: 'correct, two existing routes swapped',
    ...wrong('route_others'),
  },
  {
    id: 'route-removed',
    applies: 'add-route',
    answer: 'correct, an existing route removed',
    ...wrong('route_others'),
  },
  // sync-version
  { id: 'version-double-quotes', applies: 'sync-version', answer: 'correct, in `"…"`', ...ok },
  { id: 'version-backticks', applies: 'sync-version', answer: 'correct, in backticks', ...ok },
  { id: 'version-no-semicolon', applies: 'sync-version', answer: 'correct, no final `;`', ...ok },
  { id: 'version-spacing', applies: 'sync-version', answer: 'correct, `VERSION=` without spaces', ...ok },
  { id: 'version-wrong', applies: 'sync-version', answer: 'another version', ...wrong('version') },
  {
    id: 'version-as-const',
    applies: 'sync-version',
    answer: 'correct, with `as const`',
    ...wrong('version'),
  },
  {
    id: 'version-comment',
    applies: 'sync-version',
    answer: 'correct, plus a comment line',
    ...wrong('version'),
  },
  { id: 'version-joined', applies: 'sync-version', answer: '`exportconst VERSION`', ...wrong('version') },
  // delete-file
  {
    id: 'delete-written-empty',
    applies: 'delete-file',
    answer: 'the file written empty',
    ...wrong('still_exists'),
  },
  {
    id: 'delete-rewritten',
    applies: 'delete-file',
    answer: 'the file rewritten with CRLF line ends and no final newline',
    ...wrong('still_exists'),
  },
];
