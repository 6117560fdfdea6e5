/**
 * The command grammar of replay events (docs/replay.md). Verbs and verdicts are matched as
 * exact, upper-case leading tokens: "REJECT: not ACCEPTED" is a rejection, "ACCEPTED" is
 * not an acceptance, "save x" is not a SAVE.
 */
import { canonicalForm, tryParseExpression } from '../../dsl/index.js';

export const VERBS = ['SAVE', 'LOAD', 'CHECK', 'SKETCH', 'ANSWER'] as const;
export type Verb = (typeof VERBS)[number];

export type Command =
  | { type: 'save'; name: string }
  | { type: 'load'; name: string; note: string | null }
  | { type: 'check' | 'answer'; expression: string; parsed: ParsedExpression }
  | { type: 'sketch'; text: string }
  | { type: 'invalid'; code: 'unknown_verb' | 'missing_argument'; message: string; verb: string | null };

export type ParsedExpression =
  | { ok: true; canonical: string }
  | { ok: false; column: number; message: string; expected: readonly string[] };

export type Verdict =
  | { type: 'verdict'; verdict: 'ACCEPT' | 'REJECT'; reason: string | null }
  | { type: 'invalid'; message: string };

// A verb is the leading run of letters, ended by the end, whitespace or a colon.
const LEADING = /^([A-Za-z_]+)(?=$|[\s:])[ \t]*:?/;

/** `parse` turns a CHECK/ANSWER expression into its parse (a caller may memoise parseDsl). */
export function parseCommand(
  detail: string,
  parse: (expression: string) => ParsedExpression = parseDsl,
): Command {
  const text = detail.trim();
  const m = LEADING.exec(text);
  const word = m?.[1] ?? null;
  if (!m || !word || !(VERBS as readonly string[]).includes(word)) {
    const shown = word ?? text.split(/\s/)[0] ?? '';
    const hint =
      word && (VERBS as readonly string[]).includes(word.toUpperCase())
        ? `; verbs are upper case (${word.toUpperCase()})`
        : word === 'ACCEPT' || word === 'REJECT'
          ? '; ACCEPT and REJECT belong in verifier events'
          : '';
    return {
      type: 'invalid',
      code: 'unknown_verb',
      verb: word,
      message: `unknown verb "${shown.slice(0, 40)}"; expected one of ${VERBS.join(', ')}${hint}`,
    };
  }
  const verb = word as Verb;
  const rest = text.slice(m[0].length).trim();
  switch (verb) {
    case 'SAVE':
      if (!rest) return missing(verb, 'a checkpoint name: SAVE <name>');
      if (rest.includes('::')) return missing(verb, 'a checkpoint name without "::"');
      return { type: 'save', name: rest };
    case 'LOAD': {
      const sep = rest.indexOf('::');
      const name = (sep < 0 ? rest : rest.slice(0, sep)).trim();
      const note = sep < 0 ? null : rest.slice(sep + 2).trim() || null;
      if (!name) return missing(verb, 'a checkpoint name: LOAD <name> :: <note>');
      return { type: 'load', name, note };
    }
    case 'CHECK':
    case 'ANSWER':
      if (!rest) return missing(verb, `an expression: ${verb} <expression>`);
      return { type: verb === 'CHECK' ? 'check' : 'answer', expression: rest, parsed: parse(rest) };
    case 'SKETCH':
      if (!rest) return missing(verb, 'text: SKETCH <text>');
      return { type: 'sketch', text: rest };
  }
}

function missing(verb: Verb, what: string): Command {
  return { type: 'invalid', code: 'missing_argument', verb, message: `${verb} needs ${what}` };
}

const VERDICT = /^(ACCEPT|REJECT)(?![A-Za-z0-9_])[\s:,;.\-–—]*/;

export function parseVerdict(detail: string): Verdict {
  const text = detail.trim();
  const m = VERDICT.exec(text);
  if (!m) {
    const lead = text.split(/\s/)[0] ?? '';
    return {
      type: 'invalid',
      message: `verifier event "${text.slice(0, 60)}" is neither ACCEPT nor REJECT <reason> (leading token "${lead.slice(0, 40)}" must be exactly ACCEPT or REJECT)`,
    };
  }
  const reason = text.slice(m[0].length).trim();
  return { type: 'verdict', verdict: m[1] as 'ACCEPT' | 'REJECT', reason: reason || null };
}

export function parseDsl(expression: string): ParsedExpression {
  const r = tryParseExpression(expression);
  if (r.ok) return { ok: true, canonical: canonicalForm(r.expr) };
  return { ok: false, column: r.error.column, message: r.error.message, expected: r.error.expected };
}
