/**
 * docs/open-bench.md's grading section, rendered from the grading table (grading-table.ts,
 * grading-rows.ts). grading-table.test.ts checks the page against this text, cell by cell.
 */
import { GRADING_ROWS, type GradingRow } from './grading-rows.js';
import { PUBLIC_RECEIPT_FIELDS } from './public-receipt.js';
import {
  GRADING_SUMMARY,
  KIND_RULES,
  PLACEHOLDER_NOTES,
  PROBLEMS,
  SIDE_FIELDS,
  TEXT_RULES,
  type ProblemId,
} from './grading-table.js';

export const GRADING_BEGIN = '<!-- grading-table: rendered from src/eval/open-bench/grading-docs.ts -->';
export const GRADING_END = '<!-- /grading-table -->';
export const FIELDS_BEGIN = '<!-- public-receipt-fields -->';
export const FIELDS_END = '<!-- /public-receipt-fields -->';

const PLACEHOLDERS = {
  path: '<path>',
  key: '<KEY>',
  value: '<value>',
  n: '<n>',
  at: '<array>',
  name: '<name>',
  from: '<old>',
  to: '<new>',
};

/** A problem's wording with its placeholders, as a code span. */
export function problemTemplate(id: ProblemId): string {
  return '`' + PROBLEMS[id](PLACEHOLDERS) + '`';
}

const table = (head: string[], rows: string[][]): string[] => [
  `| ${head.join(' | ')} |`,
  `| ${head.map(() => '---').join(' | ')} |`,
  ...rows.map((r) => `| ${r.join(' | ')} |`),
];

function rowProblem(row: GradingRow): string {
  if (row.problem === undefined) return '';
  if (typeof row.problem === 'string') return problemTemplate(row.problem);
  return Object.entries(row.problem)
    .map(([kind, id]) => `${kind}: ${problemTemplate(id)}`)
    .join('; ');
}

const yes = (b: boolean): string => (b ? 'yes' : '**no**');

export function renderGradingSection(): string {
  const lines = [
    GRADING_BEGIN,
    '',
    GRADING_SUMMARY,
    '',
    '### How a file is read',
    '',
    'Formatting in every kind that compares text (all kinds but delete-file), the same in each:',
    '',
    ...TEXT_RULES.map((r) => `- ${r}`),
    '',
    '### Per kind',
    '',
    ...table(
      [
        'kind',
        'the one file, read as',
        'requested state',
        'also formatting',
        'changes (the task fails)',
        'state_problem',
      ],
      KIND_RULES.map((k) => [
        `\`${k.kind}\``,
        `${k.file}: ${k.reads_as}`,
        k.requested,
        k.formatting,
        k.changes,
        k.problems.map(problemTemplate).join(', '),
      ]),
    ),
    '',
    PLACEHOLDER_NOTES,
    '',
    '### What a side says, in every kind',
    '',
    ...table(
      ['field', 'meaning'],
      SIDE_FIELDS.map(([f, m]) => [`\`${f}\``, m]),
    ),
    '',
    '### Every answer, row by row',
    '',
    '"every" rows hold in each kind, "text" rows in each kind but delete-file; the tests grade one answer per row and kind.',
    '',
    ...table(
      ['row', 'kinds', 'the answer', 'state_reached', 'in_scope', 'passed', 'state_problem'],
      GRADING_ROWS.map((r) => [
        `\`${r.id}\``,
        r.applies,
        r.answer,
        yes(r.state_reached),
        yes(r.in_scope),
        yes(r.state_reached && r.in_scope),
        rowProblem(r),
      ]),
    ),
    '',
    GRADING_END,
  ];
  return lines.join('\n');
}

export function renderPublicReceiptFields(): string {
  return [
    FIELDS_BEGIN,
    '',
    ...table(
      ['field (JSON pointer)', 'holds'],
      PUBLIC_RECEIPT_FIELDS.map(([f, m]) => [`\`${f}\``, m]),
    ),
    '',
    FIELDS_END,
  ].join('\n');
}

/** A rendered or formatted section reduced to its content: table cells trimmed, padding and rules dropped. */
export function sectionContent(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !(/^[|\s:-]+$/.test(l) && l.includes('-')))
    .map((l) =>
      l.startsWith('|')
        ? l
            .slice(1, -1)
            .split(' | ')
            .map((c) => c.trim())
            .join(' | ')
        : l,
    );
}
