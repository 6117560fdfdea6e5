/**
 * How the open bench reads a file before comparing it (docs/open-bench.md, "Grading"): lines
 * for the line-based kinds, a token-normal form for TypeScript lines, parsed JSON for the JSON
 * kinds. Every function is linear in its input.
 */

const isSpacing = (c: string | undefined): boolean => c === ' ' || c === '\t';
const isWord = (c: string): boolean =>
  (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c === '_' || c === '$';

/** `line` without spaces and tabs at either end. */
function stripEdges(line: string): string {
  let start = 0;
  let end = line.length;
  while (start < end && isSpacing(line[start])) start++;
  while (end > start && isSpacing(line[end - 1])) end--;
  return line.slice(start, end);
}

/**
 * The lines that carry meaning: LF, CRLF and CR each end a line; spaces and tabs at either end
 * of a line are dropped, and so are the lines left empty (blank lines, a final line end).
 */
export function meaningfulLines(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.replace(/\r\n?/g, '\n').split('\n')) {
    const line = stripEdges(raw);
    if (line !== '') out.push(line);
  }
  return out;
}

/** `text` with every space and tab removed. */
export const withoutSpacing = (text: string): string => text.replace(/[ \t]/g, '');

/**
 * A TypeScript line in normal form: a string literal ('…', "…", or `…` without `${`) is
 * written in single quotes with its inside as written (a backslash keeps the next character
 * with it); outside literals a run of spaces and tabs between two word characters
 * ([A-Za-z0-9_$]) is one space and any other run is dropped; one final `;` is dropped.
 */
export function codeLine(line: string): string {
  const out: string[] = [];
  // The last character written: reading it back from a growing string would flatten it each time.
  let last = '';
  let spaced = false;
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (isSpacing(c)) {
      spaced = true;
      i++;
      continue;
    }
    if (spaced && isWord(last) && isWord(c)) out.push(' ');
    spaced = false;
    if (c !== "'" && c !== '"' && c !== '`') {
      out.push(c);
      last = c;
      i++;
      continue;
    }
    let j = i + 1;
    while (j < line.length && line[j] !== c) j += line[j] === '\\' ? 2 : 1;
    const inside = line.slice(i + 1, Math.min(j, line.length));
    if (j >= line.length) {
      out.push(c + inside); // unclosed: its own quote, never equal to a closed literal
      last = inside.at(-1) ?? c;
    } else {
      out.push(c === '`' && inside.includes('${') ? `\`${inside}\`` : `'${inside}'`);
      last = c;
    }
    i = j + 1;
  }
  const text = out.join('');
  return text.endsWith(';') ? text.slice(0, -1) : text;
}

/**
 * The first member name that appears twice in one object of `text`, which must be valid
 * JSON already (JSON.parse keeps the last of the two silently).
 */
export function repeatedMemberName(text: string): string | undefined {
  // One entry per open object (its names so far) or array (null).
  const open: (Set<string> | null)[] = [];
  let nameNext = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      if (nameNext) {
        const name = JSON.parse(text.slice(i, j + 1)) as string;
        const names = open.at(-1)!;
        if (names.has(name)) return name;
        names.add(name);
        nameNext = false;
      }
      i = j;
    } else if (c === '{') {
      open.push(new Set());
      nameNext = true;
    } else if (c === '[') {
      open.push(null);
      nameNext = false;
    } else if (c === '}' || c === ']') {
      open.pop();
      nameNext = false;
    } else if (c === ',') {
      nameNext = open.at(-1) instanceof Set;
    }
  }
  return undefined;
}

/** The parsed document, or why `text` is not one JSON document with unique member names. */
export function readJson(text: string): { value: unknown } | { invalid: true } | { repeated: string } {
  let value: unknown;
  try {
    value = JSON.parse(text) as unknown;
  } catch {
    return { invalid: true };
  }
  const repeated = repeatedMemberName(text);
  return repeated === undefined ? { value } : { repeated };
}
