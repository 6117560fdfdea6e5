/**
 * Interned words of one request. A corpus of memories repeats a small vocabulary, so each
 * distinct word becomes one string and one small integer id: the scan hashes a word's
 * characters as it reads them and finds its id without cutting a new string per occurrence,
 * and BM25 and entity search then work on ids (array lookups, not string hashing).
 */
import { tokenCost, WORD } from './text.js';

const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;

export class WordTable {
  /** Word per id. */
  readonly words: string[] = [];
  private readonly hashes: number[] = [];
  private slots = new Int32Array(1024).fill(-1);

  /** Id of `text.slice(start, end)`, whose FNV-1a hash over UTF-16 units is `hash`. */
  idOfRange(text: string, start: number, end: number, hash: number): number {
    const mask = this.slots.length - 1;
    let at = hash & mask;
    for (;;) {
      const id = this.slots[at]!;
      if (id < 0) break;
      if (this.hashes[id] === hash) {
        const w = this.words[id]!;
        if (w.length === end - start && text.startsWith(w, start)) return id;
      }
      at = (at + 1) & mask;
    }
    const id = this.words.length;
    this.words.push(text.slice(start, end));
    this.hashes.push(hash);
    this.slots[at] = id;
    if (this.words.length * 2 > this.slots.length) this.grow();
    return id;
  }

  idOf(word: string): number {
    let hash = FNV_OFFSET;
    for (let i = 0; i < word.length; i++) hash = Math.imul(hash ^ word.charCodeAt(i), FNV_PRIME);
    return this.idOfRange(word, 0, word.length, hash);
  }

  private grow(): void {
    const slots = new Int32Array(this.slots.length * 2).fill(-1);
    const mask = slots.length - 1;
    for (let id = 0; id < this.hashes.length; id++) {
      let at = this.hashes[id]! & mask;
      while (slots[at]! >= 0) at = (at + 1) & mask;
      slots[at] = id;
    }
    this.slots = slots;
  }
}

/**
 * The ids of words(text) and tokenCost(text), in one pass when the text is ASCII (lower-casing
 * ASCII changes no whitespace, so the cost counted on the lower-cased text is the same);
 * other text takes the regex and tokenCost, so the words are exactly words()'s.
 */
export function scanWords(text: string, table: WordTable): { ids: number[]; tokens: number } {
  const lower = text.toLowerCase();
  const ids: number[] = [];
  let tokens = 0;
  let start = -1;
  let hash = FNV_OFFSET;
  let inToken = false;
  for (let i = 0; i < lower.length; i++) {
    const c = lower.charCodeAt(i);
    if (c > 127) {
      const all = lower.match(WORD) ?? [];
      return { ids: all.map((w) => table.idOf(w)), tokens: tokenCost(text) };
    }
    const space = c === 32 || (c >= 9 && c <= 13);
    if (!space && !inToken) tokens++;
    inToken = !space;
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57)) {
      if (start < 0) {
        start = i;
        hash = FNV_OFFSET;
      }
      hash = Math.imul(hash ^ c, FNV_PRIME);
    } else if (start >= 0) {
      ids.push(table.idOfRange(lower, start, i, hash));
      start = -1;
    }
  }
  if (start >= 0) ids.push(table.idOfRange(lower, start, lower.length, hash));
  return { ids, tokens };
}
