/**
 * Bounds the nesting depth of a JSON text before it is parsed. Everything downstream that
 * walks a request (canonicalisation for the request hash, validation) recurses, so a 40 KB
 * body of 20,000 nested arrays would otherwise overflow the stack: a 500 from a bad input.
 * One linear pass over the characters, skipping string contents.
 */

export const MAX_JSON_DEPTH = 64;

/** The character offset where the depth first exceeds `max`, or -1 when it never does. */
export function firstTooDeep(text: string, max = MAX_JSON_DEPTH): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \\ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) {
      inString = true;
    } else if (c === 123 /* { */ || c === 91 /* [ */) {
      if (++depth > max) return i;
    } else if (c === 125 /* } */ || c === 93 /* ] */) {
      depth--;
    }
  }
  return -1;
}

/** The input error's wording, REST and MCP alike; `at` is where the level past the limit starts (or -1). */
export function tooDeepMessage(at: number, max = MAX_JSON_DEPTH): string {
  return (
    `The request body nests arrays/objects too deeply to process` +
    (at >= 0 ? ` (level ${max + 1} starts at character ${at})` : '') +
    `; keep nesting under ${max} levels.`
  );
}
