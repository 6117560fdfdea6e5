/**
 * Top-level headings of a CommonMark document, with exact offsets into the original text.
 *
 * The document is parsed in chunks of about 1 KiB cut where CommonMark's block parser is
 * provably back in its initial state: a line starting with a non-blank character in column 0
 * right after a blank line. There every container (list item, block quote) and every leaf block
 * that ends at a blank line has closed; only a top-level fenced code block or an HTML block of
 * kinds 1-5 can still be open, and a chunk whose last block is one of those, unclosed, is
 * extended past the line that closes it. Chunks let a patched document be re-checked by
 * parsing only the chunks an edit touched (rescanHeadings).
 */
import {
  inlineParser,
  parseBlocks,
  type InlineToken,
  type LinkReference,
  type LinkReferences,
  type ParsedBlocks,
} from './block-parser.js';

export interface HeadingInfo {
  /** 1..6 */
  level: number;
  kind: 'atx' | 'setext';
  /** Offset of the start of the heading's first line (UTF-16 code units). */
  start: number;
  /** Offset just past the heading's last character (the underline, for setext). */
  end: number;
  /** The heading's source text between its markers, whitespace collapsed and trimmed. */
  raw: string;
  /** The rendered text, memoised by resolveTarget (only headings with inline markup differ). */
  rendered?: string;
  /** 1-based line number of the heading's first line. */
  line: number;
}

/** Chunks are at least this long: small enough that an edit re-parses little, large enough to be cheap. */
const CHUNK_CHARS = 1024;

const SAFE_BOUNDARY = /\n[ \t]*\r?\n(?=[^\s])/g;

/** Smallest safe boundary at or after `from` (document length when there is none). */
function boundaryAfter(doc: string, from: number): number {
  if (from >= doc.length) return doc.length;
  SAFE_BOUNDARY.lastIndex = Math.max(0, from - 1);
  const m = SAFE_BOUNDARY.exec(doc);
  return m ? m.index + m[0].length : doc.length;
}

export function normalizeSpace(s: string): string {
  return s.trim().replace(/\s+/g, ' ');
}

/** One parsed stretch of the document, cut at safe boundaries; its headings hold absolute offsets. */
export interface Chunk {
  start: number;
  end: number;
  headings: HeadingInfo[];
  references: LinkReferences;
}

export interface HeadingScan {
  headings: HeadingInfo[];
  chunks: Chunk[];
  /** The document's link reference definitions, for rendering its headings. */
  references: LinkReferences;
}

/** A replacement made on the document: `removed` characters at `at` became `inserted` characters. */
export interface Edit {
  at: number;
  removed: number;
  inserted: number;
}

export function scanHeadings(doc: string): HeadingScan {
  const chunks: Chunk[] = [];
  let pos = 0;
  while (pos < doc.length) {
    const chunk = parseFrom(doc, pos, boundaryAfter(doc, pos + CHUNK_CHARS), (closesAt) =>
      boundaryAfter(doc, closesAt),
    );
    chunks.push(chunk);
    pos = chunk.end;
  }
  return withLines(doc, chunks);
}

/**
 * The headings of `doc`, which is the scanned document after `edits` (applied in order, each
 * in the coordinates of the document as it was then). Chunks no edit touched are byte-identical
 * and start at a safe boundary, so their headings are reused (shifted); only the touched chunks
 * are parsed again, extended while they end inside an open block or the edit destroyed the
 * boundary that ended them.
 */
export function rescanHeadings(doc: string, scan: HeadingScan, edits: readonly Edit[]): HeadingInfo[] {
  const bounds = scan.chunks.map((c) => c.start);
  bounds.push(scan.chunks[scan.chunks.length - 1]?.end ?? 0);
  const dirty = scan.chunks.map(() => false);
  for (const { at, removed, inserted } of edits) {
    for (let i = 0; i < dirty.length; i++)
      if (at <= bounds[i + 1]! && at + removed >= bounds[i]!) dirty[i] = true;
    for (let j = 0; j < bounds.length; j++) {
      const b = bounds[j]!;
      if (b >= at + removed && b > at) bounds[j] = b + inserted - removed;
      else if (b > at) bounds[j] = at + inserted;
    }
  }
  bounds[bounds.length - 1] = doc.length;
  const chunks: Chunk[] = [];
  let j = 0;
  let pos = 0;
  while (pos < doc.length) {
    while (j < dirty.length && bounds[j + 1]! <= pos) j++;
    const original = scan.chunks[j]!;
    if (!dirty[j] && bounds[j] === pos) {
      const shift = pos - original.start;
      const headings = original.headings.map((h) => ({ ...h, start: h.start + shift, end: h.end + shift }));
      chunks.push({ start: pos, end: bounds[j + 1]!, headings, references: original.references });
      pos = bounds[j + 1]!;
      continue;
    }
    // The next chunk end at or after `from` that is still a safe boundary.
    const safeEndAfter = (from: number): number => {
      for (let k = j + 1; k < bounds.length; k++) {
        const b = bounds[k]!;
        if (b >= from && b > pos && isBoundary(doc, b)) return b;
      }
      return doc.length;
    };
    const chunk = parseFrom(doc, pos, safeEndAfter(pos + 1), safeEndAfter);
    chunks.push(chunk);
    pos = chunk.end;
  }
  return withLines(doc, chunks).headings;
}

/** Parses doc[pos, end), extending `end` (via `next`) past any block the chunk leaves open. */
function parseFrom(doc: string, pos: number, end: number, next: (closesAt: number) => number): Chunk {
  let text: string;
  let parsed: ParsedBlocks;
  for (;;) {
    text = doc.slice(pos, end);
    parsed = parseBlocks(text);
    if (end >= doc.length || !parsed.lastOpenable) break;
    const closesAt = openBlockEnd(doc, pos, text, parsed);
    if (closesAt === null) break;
    end = next(closesAt);
  }
  const { lineStarts } = parsed;
  const headings = parsed.headings.map((h): HeadingInfo => ({
    level: h.level,
    kind: h.kind,
    start: pos + lineStarts[h.firstLine]!,
    end: pos + lineEnd(text, lineStarts, h.lastLine),
    raw: normalizeSpace(h.content),
    line: 0,
  }));
  return { start: pos, end, headings, references: parsed.references };
}

/** Offset of the end of line `line` of `text`, before its line break. */
function lineEnd(text: string, lineStarts: readonly number[], line: number): number {
  const next = lineStarts[line + 1];
  if (next === undefined) return text.length;
  return next - (text[next - 2] === '\r' && text[next - 1] === '\n' ? 2 : 1);
}

function withLines(doc: string, chunks: Chunk[]): HeadingScan {
  const lines = new LineIndex(doc);
  const headings = chunks.flatMap((c) => c.headings);
  for (const h of headings) h.line = lines.lineOf(h.start);
  // A definition may sit in any chunk; as in one parse of the whole document, the first wins.
  const references: Record<string, LinkReference> = {};
  for (const c of chunks)
    for (const [label, ref] of Object.entries(c.references))
      if (!Object.hasOwn(references, label)) references[label] = ref;
  return { headings, chunks, references };
}

function isBoundary(doc: string, p: number): boolean {
  if (p <= 0 || p >= doc.length) return true;
  return /\n[ \t]*\r?\n[^\s]$/.test(doc.slice(Math.max(0, p - 256), p + 1));
}

const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;
const HTML_KINDS: { start: RegExp; end: RegExp }[] = [
  { start: /^ {0,3}<(?:script|pre|style|textarea)(?=[\s>]|$)/i, end: /<\/(?:script|pre|style|textarea)>/i },
  { start: /^ {0,3}<!--/, end: /-->/ },
  { start: /^ {0,3}<\?/, end: /\?>/ },
  { start: /^ {0,3}<![A-Za-z]/, end: />/ },
  { start: /^ {0,3}<!\[CDATA\[/, end: /\]\]>/ },
];

/**
 * When the chunk's last top-level block is a fenced code block or an HTML block of kinds 1-5
 * that the chunk left open, the offset of the end of the line that closes it in the whole
 * document (or the document's end); null when nothing is left open.
 */
function openBlockEnd(doc: string, pos: number, text: string, parsed: ParsedBlocks): number | null {
  const block = parsed.lastOpenable;
  if (!block) return null;
  const from = parsed.lineStarts[block.firstLine]!;
  const source = text.slice(from, parsed.lineStarts[block.lastLine + 1] ?? text.length);
  const start = pos + from;
  const firstLineEnd = source.indexOf('\n');
  const firstLine = firstLineEnd < 0 ? source : source.slice(0, firstLineEnd);
  if (block.type === 'fence') {
    const open = FENCE_OPEN.exec(firstLine)?.[1];
    if (!open) return null;
    const close = new RegExp(`^ {0,3}${open[0] === '`' ? '`' : '~'}{${open.length},}[ \\t]*\\r?$`, 'm');
    if (firstLineEnd >= 0 && close.test(source.slice(firstLineEnd + 1))) return null;
    return endOfMatchLine(doc, start + (firstLineEnd < 0 ? source.length : firstLineEnd + 1), close);
  }
  const kind = HTML_KINDS.find((k) => k.start.test(firstLine));
  if (!kind) return null; // kinds 6 and 7 end at a blank line
  const afterOpen = source.replace(kind.start, '');
  if (kind.end.test(afterOpen)) return null;
  return endOfMatchLine(doc, start + (source.length - afterOpen.length), kind.end);
}

function endOfMatchLine(doc: string, from: number, re: RegExp): number {
  const global = new RegExp(re.source, re.flags.includes('g') ? re.flags : re.flags + 'g');
  global.lastIndex = from;
  const m = global.exec(doc);
  if (!m) return doc.length;
  const nl = doc.indexOf('\n', m.index + m[0].length);
  return nl < 0 ? doc.length : nl + 1;
}

/** Offset -> 1-based line number, by binary search over line starts. */
export class LineIndex {
  private readonly starts: number[] = [0];

  constructor(text: string) {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.starts.push(i + 1);
  }

  lineOf(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo + 1;
  }

  columnOf(offset: number): number {
    return offset - this.starts[this.lineOf(offset) - 1]! + 1;
  }
}

/** Headings longer than this are matched by their source text only (rendering is not needed to name them). */
export const MAX_RENDERED_CHARS = 2000;

/**
 * The heading's text as a reader sees it (emphasis, code spans, links and images reduced to
 * their text, character references decoded, inline HTML dropped), by markdown-it's inline
 * parser. `references` are the document's link reference definitions: a reference link
 * (`[text][label]`, `[label][]`, `[label]`) renders as its text only when its label is
 * defined, and stays literal otherwise. Only called for headings whose source holds markup.
 */
export function renderedHeadingText(raw: string, references: LinkReferences = {}): string {
  if (raw.length > MAX_RENDERED_CHARS || !/[`*_\\[\]&<!]/.test(raw)) return raw;
  const [inline] = inlineParser.parseInline(raw, { references });
  return normalizeSpace(textOf(inline?.children ?? []));
}

function textOf(tokens: readonly InlineToken[]): string {
  let out = '';
  for (const t of tokens) {
    if (t.type === 'text' || t.type === 'code_inline') out += t.content;
    else if (t.type === 'softbreak' || t.type === 'hardbreak') out += ' ';
    else if (t.type === 'image') out += textOf(t.children ?? []);
  }
  return out;
}
