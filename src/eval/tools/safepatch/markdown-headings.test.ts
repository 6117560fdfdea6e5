import { fromMarkdown } from 'mdast-util-from-markdown';
import { describe, expect, it } from 'vitest';
import { rescanHeadings, scanHeadings, type Edit } from './markdown-headings.js';
import { lcg } from '../../math/lcg.testing.js';

// Blocks chosen to stress the chunk boundaries: fences and HTML blocks spanning blank lines,
// headings inside them, lists, quotes, setext headings, indented code.
const BLOCKS = [
  (i: number) => `## Heading ${i}\n\n`,
  (i: number) => `Title ${i}\n======\n\n`,
  (i: number) => `Paragraph ${i} with *emphasis* and \`code\`.\n\n`,
  (i: number) => `\`\`\`\n# not a heading ${i}\n\n# still not\n\`\`\`\n\n`,
  (i: number) => `~~~~\ncode ${i}\n\nmore\n~~~~\n\n`,
  (i: number) => `<!--\ncomment ${i}\n\n# hidden\n-->\n\n`,
  (i: number) => `<pre>\n${i}\n\n# hidden\n</pre>\n\n`,
  (i: number) => `- item ${i}\n- item\n\n  # nested heading in a list\n\n`,
  (i: number) => `> quote ${i}\n> # heading in a quote\n\n`,
  (i: number) => `    indented code ${i}\n    # not a heading\n\n`,
  (i: number) => `# Top ${i} #\n\n`,
];

function document(seed: number, blocks: number, crlf = false): string {
  const rnd = lcg(seed);
  let doc = '';
  for (let i = 0; i < blocks; i++) doc += BLOCKS[Math.floor(rnd() * BLOCKS.length)]!(i);
  return crlf ? doc.replace(/\n/g, '\r\n') : doc;
}

/** Reference: one unchunked parse, top-level headings only. */
function reference(doc: string): { level: number; start: number }[] {
  return fromMarkdown(doc)
    .children.filter((n) => n.type === 'heading')
    .map((n) => {
      const at = n.position!.start.offset!;
      return { level: n.type === 'heading' ? n.depth : 0, start: doc.lastIndexOf('\n', at - 1) + 1 };
    });
}

describe('chunked heading scan', () => {
  it.each([1, 2, 3, 4, 5])('equals one unchunked parse (seed %i)', (seed) => {
    for (const crlf of [false, true]) {
      const doc = document(seed, 300, crlf);
      expect(scanHeadings(doc).headings.map((h) => ({ level: h.level, start: h.start }))).toEqual(
        reference(doc),
      );
    }
  });

  it('collects the link reference definitions of every chunk, the first definition winning', () => {
    const doc =
      '# A\n\n[x]: /first\n\n' +
      'text\n\n'.repeat(400) +
      '> [y]: /quoted\n\n```\n[z]: /fenced\n```\n\n[X]: /second\n';
    const { references } = scanHeadings(doc);
    expect(references).toEqual({
      X: { href: '/first', title: '' },
      Y: { href: '/quoted', title: '' },
    });
  });

  it('extends a chunk past an unclosed fence to the end of the document', () => {
    const doc = '# A\n\n' + 'text\n\n'.repeat(400) + '```\n' + '\n# inside\n\n'.repeat(300);
    expect(scanHeadings(doc).headings.map((h) => h.raw)).toEqual(['A']);
  });
});

describe('incremental rescan', () => {
  it.each([11, 12, 13, 14, 15, 16])('equals a full scan after random edits (seed %i)', (seed) => {
    const rnd = lcg(seed);
    const original = document(seed, 250);
    const scan = scanHeadings(original);
    let doc = original;
    const edits: Edit[] = [];
    const inserts = [
      'x',
      '',
      '\n\n## new heading\n\n',
      '```\n',
      '\n',
      'Title\n===\n',
      '<!--\n',
      'plain words ',
    ];
    for (let k = 0; k < 30; k++) {
      const at = Math.floor(rnd() * doc.length);
      const removed = Math.min(doc.length - at, Math.floor(rnd() * 20));
      const text = inserts[Math.floor(rnd() * inserts.length)]!;
      doc = doc.slice(0, at) + text + doc.slice(at + removed);
      edits.push({ at, removed, inserted: text.length });
    }
    const strip = (hs: ReturnType<typeof scanHeadings>['headings']) =>
      hs.map(({ level, start, end, raw, kind, line }) => ({ level, start, end, raw, kind, line }));
    expect(strip(rescanHeadings(doc, scan, edits))).toEqual(strip(scanHeadings(doc).headings));
  });
});
