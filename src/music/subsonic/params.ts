/**
 * Subsonic parameters from the query string and, for POST (the formPost extension), an
 * application/x-www-form-urlencoded body; a name may repeat (id=…&id=…). Every value must be
 * text (a JSON body's number, boolean, null or object is error 10) and is checked for control
 * and invisible formatting characters (core/text-safety.ts). Names live in a Map, so
 * "__proto__" or "constructor" are names like any other.
 */
import { cutText } from '../../core/text-length.js';
import { refusedCharacter } from '../../core/text-safety.js';
import { isDecimalInteger } from '../../core/text-patterns.js';
import { badParameter, missingParameter, parameterNotText, type SubsonicError } from './errors.js';

export type RawParams = Record<string, string | string[] | undefined>;

export class Params {
  private readonly values = new Map<string, string[]>();

  constructor(...sources: (Readonly<Record<string, unknown>> | undefined)[]) {
    for (const source of sources) {
      if (!source) continue;
      for (const [name, value] of Object.entries(source)) {
        if (value === undefined) continue;
        const list = this.values.get(name) ?? [];
        for (const v of Array.isArray(value) ? (value as unknown[]) : [value]) {
          if (typeof v !== 'string') throw notText(name, v);
          const bad = refusedCharacter(v);
          if (bad !== undefined)
            throw badParameter(name, `holds the character ${bad}, which is not accepted`);
          list.push(v);
        }
        this.values.set(name, list);
      }
    }
  }

  has(name: string): boolean {
    return this.values.has(name);
  }

  get(name: string): string | undefined {
    return this.values.get(name)?.[0];
  }

  /** Free text (a client's name, a comment), cut to at most `max` characters; '' when absent. */
  text(name: string, max: number): string {
    return cutText(this.get(name) ?? '', max);
  }

  all(name: string): string[] {
    return this.values.get(name) ?? [];
  }

  required(name: string): string {
    const v = this.get(name);
    if (v === undefined || v === '') throw missingParameter(name);
    return v;
  }

  int(name: string, fallback: number, min: number, max: number): number {
    const v = this.get(name);
    if (v === undefined || v === '') return fallback;
    return parseIntIn(name, v, min, max);
  }

  optionalInt(name: string, min: number, max: number): number | undefined {
    const v = this.get(name);
    return v === undefined || v === '' ? undefined : parseIntIn(name, v, min, max);
  }

  /** Every value of a repeated integer parameter (songIndexToRemove=0&songIndexToRemove=3). */
  ints(name: string, min: number, max: number): number[] {
    return this.all(name).map((v) => parseIntIn(name, v, min, max));
  }

  bool(name: string, fallback: boolean): boolean {
    const v = this.get(name);
    if (v === undefined || v === '') return fallback;
    if (v === 'true') return true;
    if (v === 'false') return false;
    throw badParameter(name, `must be true or false (got ${JSON.stringify(cutText(v, 40))})`);
  }
}

function notText(name: string, value: unknown): SubsonicError {
  const kind = value === null ? 'null' : Array.isArray(value) ? 'a list of lists' : `a ${typeof value}`;
  return parameterNotText(name, kind);
}

/** The API's rule for integers (core/text-patterns.ts): decimal digits, a minus only where negatives are allowed. */
function parseIntIn(name: string, v: string, min: number, max: number): number {
  if (v.length > 16 || !isDecimalInteger(v, min < 0) || Number(v) < min || Number(v) > max)
    throw badParameter(
      name,
      `must be a whole number from ${min} to ${max} in plain decimal digits: no plus sign, spaces, hexadecimal or exponent (got ${JSON.stringify(cutText(v, 40))})`,
    );
  return Number(v);
}
