/**
 * One batch line, `{"id": "...", "tool": "gate", "request": {...}}`, read without parsing the
 * request: a scan finds the top-level members, `id` and `tool` are parsed, and the request's
 * own bytes go to the tool as a single call's body would, so its receipt (and any input error)
 * is the one the tool's endpoint gives for those bytes.
 */
import { refusedCharacter } from '../../core/text-safety.js';
import { TOOLS } from '../registry.js';
import type { ToolDefinition } from '../tool-definition.js';
import type { LineError } from '../errors.js';
import {
  batchTooManyLines,
  lineIdLength,
  lineIdRefusedCharacter,
  lineNotJson,
  lineNotObject,
  lineTooLong,
  lineUnknownMember,
  lineUnknownTool,
  lineWithoutId,
  lineWithoutRequest,
} from '../errors.js';

export const MAX_BATCH_LINES = 10_000;
export const MAX_ID_LENGTH = 200;

const toolsById = new Map(TOOLS.map((t) => [t.id, t]));
const MEMBERS = new Set(['id', 'tool', 'request']);

export interface ParsedLine {
  id: string;
  tool: ToolDefinition;
  request: Uint8Array;
}

/** Non-blank lines of an NDJSON body (LF or CRLF), as views into it; throws past MAX_BATCH_LINES. */
export function splitLines(body: Buffer): Buffer[] {
  const lines: Buffer[] = [];
  let start = 0;
  while (start <= body.length) {
    let end = body.indexOf(0x0a, start);
    if (end < 0) end = body.length;
    let stop = end;
    if (stop > start && body[stop - 1] === 0x0d) stop--;
    if (!isBlank(body, start, stop)) {
      if (lines.length === MAX_BATCH_LINES) throw batchTooManyLines(MAX_BATCH_LINES);
      lines.push(body.subarray(start, stop));
    }
    start = end + 1;
  }
  return lines;
}

function isBlank(b: Buffer, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isWs(b[i]!)) return false;
  return true;
}

function isWs(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

export function parseLine(line: Buffer, lineLimit: number): ParsedLine {
  if (line.length > lineLimit) throw lineTooLong(line.length, lineLimit);
  const members = topLevelMembers(line);
  const id = readId(line, members.get('id'));
  for (const key of members.keys()) if (!MEMBERS.has(key)) throw lineUnknownMember(id, key);
  const tool = readTool(line, id, members.get('tool'));
  const span = members.get('request');
  if (!span) throw lineWithoutRequest(id);
  return { id, tool, request: line.subarray(span[0], span[1]) };
}

type Span = [number, number];

function readId(line: Buffer, span: Span | undefined): string {
  if (!span) throw lineWithoutId();
  const id = spanValue(line, span);
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID_LENGTH)
    throw lineIdLength(MAX_ID_LENGTH);
  const bad = refusedCharacter(id);
  if (bad) throw lineIdRefusedCharacter(bad);
  return id;
}

function readTool(line: Buffer, id: string, span: Span | undefined): ToolDefinition {
  const name = span ? spanValue(line, span) : undefined;
  const tool = typeof name === 'string' ? toolsById.get(name) : undefined;
  if (!tool) throw lineUnknownTool(id, [...toolsById.keys()]);
  return tool;
}

function spanValue(line: Buffer, [from, to]: Span): unknown {
  const plain = plainString(line, from, to);
  if (plain !== undefined) return plain;
  try {
    return JSON.parse(decoder.decode(line.subarray(from, to))) as unknown;
  } catch {
    throw lineNotJson();
  }
}

/**
 * A string literal of printable ASCII without escapes (every key, id and tool name in practice)
 * is the bytes between its quotes; anything else is left to JSON.parse.
 */
function plainString(b: Buffer, from: number, to: number): string | undefined {
  if (to - from < 2 || b[from] !== 0x22 || b[to - 1] !== 0x22) return undefined;
  for (let i = from + 1; i < to - 1; i++) {
    const c = b[i]!;
    if (c < 0x20 || c > 0x7e || c === 0x22 || c === 0x5c) return undefined;
  }
  return b.toString('latin1', from + 1, to - 1);
}

/** The spans of an object's top-level member values (the last of a repeated key, as JSON.parse). */
function topLevelMembers(line: Buffer): Map<string, Span> {
  const fail = (): never => {
    throw notAnObject(line);
  };
  const members = new Map<string, Span>();
  let i = skipWs(line, 0);
  if (line[i] !== 0x7b) fail();
  i = skipWs(line, i + 1);
  if (line[i] === 0x7d) return end(line, i + 1, members, fail);
  for (;;) {
    if (line[i] !== 0x22) fail();
    const keyEnd = skipString(line, i);
    if (keyEnd < 0) fail();
    const key = spanValue(line, [i, keyEnd]) as string;
    i = skipWs(line, keyEnd);
    if (line[i] !== 0x3a) fail();
    const from = skipWs(line, i + 1);
    const to = skipValue(line, from);
    if (to <= from) fail();
    members.set(key, [from, to]);
    i = skipWs(line, to);
    if (line[i] === 0x2c) i = skipWs(line, i + 1);
    else if (line[i] === 0x7d) return end(line, i + 1, members, fail);
    else fail();
  }
}

function end(line: Buffer, i: number, members: Map<string, Span>, fail: () => never): Map<string, Span> {
  if (skipWs(line, i) !== line.length) fail();
  return members;
}

/** Malformed JSON, or valid JSON that is not an object: each named for what it is. */
function notAnObject(line: Buffer): LineError {
  try {
    JSON.parse(decoder.decode(line));
  } catch (err) {
    const reason = err instanceof SyntaxError ? `: ${err.message}` : ' UTF-8';
    return lineNotJson(reason);
  }
  return lineNotObject();
}

function skipWs(b: Buffer, i: number): number {
  while (i < b.length && isWs(b[i]!)) i++;
  return i;
}

/** From the opening quote to just past the closing one; -1 when unterminated. */
function skipString(b: Buffer, i: number): number {
  for (let j = i + 1; j < b.length; j++) {
    const c = b[j];
    if (c === 0x5c) j++;
    else if (c === 0x22) return j + 1;
  }
  return -1;
}

/** Just past a value; nested values are matched by brackets only, their parse is the tool's. */
function skipValue(b: Buffer, i: number): number {
  const c = b[i];
  if (c === 0x22) return skipString(b, i);
  if (c === 0x7b || c === 0x5b) {
    let depth = 0;
    for (let j = i; j < b.length; j++) {
      const d = b[j];
      if (d === 0x22) {
        j = skipString(b, j);
        if (j < 0) return -1;
        j--;
      } else if (d === 0x7b || d === 0x5b) depth++;
      else if (d === 0x7d || d === 0x5d) {
        depth--;
        if (depth === 0) return j + 1;
      }
    }
    return -1;
  }
  let j = i;
  while (j < b.length && !isWs(b[j]!) && b[j] !== 0x2c && b[j] !== 0x7d && b[j] !== 0x5d) j++;
  return j;
}
