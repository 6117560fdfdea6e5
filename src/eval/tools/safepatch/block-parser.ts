/**
 * CommonMark block structure of a piece of Markdown, by markdown-it's block parser (the
 * `commonmark` preset, which follows the CommonMark spec; inline parsing is skipped because
 * it cannot create or hide a block-level heading).
 *
 * Why markdown-it and not mdast-util-from-markdown (micromark) for this pass: micromark is
 * superlinear on nested lists, markdown-it's block pass linear (docs/safepatch.md, "Sections").
 * The tests check its headings against mdast-util-from-markdown on documents built to stress
 * the block rules.
 */
import MarkdownIt from 'markdown-it';

const md = new MarkdownIt('commonmark');

/** The same parser, for rendering heading text (inline rules only). */
export const inlineParser = md;
export type InlineToken = ReturnType<typeof md.parseInline>[number];

export interface BlockHeading {
  level: number;
  kind: 'atx' | 'setext';
  /** First and last line (0-based, inclusive) of the heading in the parsed text. */
  firstLine: number;
  lastLine: number;
  /** Source text between the markers (markdown-it's inline content), untrimmed. */
  content: string;
}

/** A link reference definition (`[label]: href "title"`), as markdown-it records it. */
export interface LinkReference {
  href: string;
  title: string;
}

/** Link reference definitions by markdown-it's normalised label; the first definition wins. */
export type LinkReferences = Readonly<Record<string, LinkReference>>;

export interface ParsedBlocks {
  headings: BlockHeading[];
  /** The link reference definitions in the text (CommonMark lets a heading use later ones). */
  references: LinkReferences;
  /** The last top-level block, when it is a fenced code block or an HTML block. */
  lastOpenable: { type: 'fence' | 'html'; firstLine: number; lastLine: number } | null;
  /** Offset of the start of every line of the original text. */
  lineStarts: number[];
}

const LINE_BREAK = /\r\n|\r|\n/g;

/**
 * Parses `text`. Line breaks are normalised for the parser (CommonMark treats \r\n, \r and \n
 * alike; markdown-it's block pass only splits on \n), so line numbers map 1:1 back to `text`.
 */
export function parseBlocks(text: string): ParsedBlocks {
  const lineStarts = [0];
  LINE_BREAK.lastIndex = 0;
  for (let m = LINE_BREAK.exec(text); m; m = LINE_BREAK.exec(text)) lineStarts.push(m.index + m[0].length);
  const normalised = text.includes('\r') ? text.replace(LINE_BREAK, '\n') : text;
  const tokens: ReturnType<typeof md.parse> = [];
  const env: { references?: Record<string, LinkReference> } = {};
  md.block.parse(normalised, md, env, tokens);
  const headings: BlockHeading[] = [];
  let lastTopLevel: (typeof tokens)[number] | null = null;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.level !== 0 || !t.map || t.nesting === -1) continue;
    lastTopLevel = t;
    if (t.type !== 'heading_open') continue;
    headings.push({
      level: Number(t.tag.slice(1)),
      kind: t.markup.startsWith('#') ? 'atx' : 'setext',
      firstLine: t.map[0],
      lastLine: t.map[1] - 1,
      content: tokens[i + 1]?.type === 'inline' ? tokens[i + 1]!.content : '',
    });
  }
  const type = lastTopLevel?.type;
  const lastOpenable =
    lastTopLevel?.map && (type === 'fence' || type === 'html_block')
      ? {
          type: type === 'fence' ? ('fence' as const) : ('html' as const),
          firstLine: lastTopLevel.map[0],
          lastLine: lastTopLevel.map[1] - 1,
        }
      : null;
  return { headings, references: env.references ?? {}, lastOpenable, lineStarts };
}
