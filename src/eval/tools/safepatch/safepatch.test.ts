import { describe, expect, it } from 'vitest';
import { executeTool } from '../../execute.js';
import { runSafepatch } from './safepatch.js';
import type { PatchOperation } from './schema.js';
import { splitSections } from './sections.js';

const DOC = [
  'Intro text before any heading.',
  '',
  '# Acme Billing Service',
  '',
  'Owner: payments team. Tracks [REQ-12].',
  '',
  '## Install',
  '',
  'Install v2.3.1 with the installer.',
  '',
  '```sh',
  '# Limits',
  'echo "a shell comment, not a heading"',
  '```',
  '',
  'Release Notes',
  '=============',
  '',
  'Shipped on 2025-03-01. Shipped again later.',
  '',
  '## Limits',
  '',
  'Requests are limited to 100 per minute by the Acme Billing Service gateway.',
  '',
].join('\n');

function patch(ops: PatchOperation[], document = DOC): ReturnType<typeof runSafepatch> {
  return runSafepatch({ document, operations: ops });
}

const op = (target_heading: string, find: string, replace: string, allow?: string[]): PatchOperation => ({
  target_heading,
  find,
  replace,
  ...(allow ? { allow_token_changes: allow } : {}),
});

describe('sections', () => {
  it('a # line inside a fenced block is not a section; setext headings are; ROOT comes first', () => {
    const { sections } = splitSections(DOC);
    expect(sections.map((s) => s.heading?.raw ?? 'ROOT')).toEqual([
      'ROOT',
      'Acme Billing Service',
      'Install',
      'Release Notes',
      'Limits',
    ]);
    expect(sections[3]!.heading!.kind).toBe('setext');
    // The sections tile the document exactly.
    expect(sections.map((s) => DOC.slice(s.start, s.end)).join('')).toBe(DOC);
  });

  it('stays exact when a chunk boundary falls inside an unclosed-looking fence and long documents', () => {
    const filler = Array.from({ length: 400 }, (_, i) => `Paragraph ${i} of filler text.\n`).join('\n');
    const doc = `# Top\n\n${filler}\n\`\`\`\n${filler}\n# inside fence\n\n${filler}\n\`\`\`\n\n# After\n\n- a\n- b\n\n## Tail\n`;
    const names = splitSections(doc).sections.map((s) => s.heading?.raw ?? 'ROOT');
    expect(names).toEqual(['ROOT', 'Top', 'After', 'Tail']);
  });
});

describe('safepatch operations', () => {
  it('applies a scoped replacement and reports hashes and a unified diff', () => {
    const r = patch([op('Limits', 'limited to 100 per minute', 'limited to 100 per minute per client')]);
    expect(r.status).toBe('APPLIED');
    const doc = r.result.document as string;
    expect(doc).toContain('per minute per client');
    expect(r.result.diff).toMatch(/^-Requests are limited to 100 per minute by/m);
    expect(r.result.diff).toMatch(/^\+Requests are limited to 100 per minute per client by/m);
    expect(r.result.sha256_before).not.toBe(r.result.sha256_after);
  });

  it('a # heading inside a fenced block cannot be targeted: Limits names exactly the real heading', () => {
    const r = patch([op('Limits', 'echo', 'printf')]);
    expect(r.status).toBe('REJECTED');
    expect(r.items[0]!.reasons[0]).toMatch(/does not occur in the body of ## Limits/);
  });

  it('rejects a find that occurs twice in its section', () => {
    const r = patch([op('Release Notes', 'Shipped', 'Released')]);
    expect(r.status).toBe('REJECTED');
    expect(r.items[0]!.decision).toBe('rejected');
    expect(r.items[0]!.reasons[0]).toMatch(/occurs 2 times/);
    expect(r.result.document).toBe(DOC);
  });

  it('a setext heading is a target', () => {
    const r = patch([op('Release Notes', 'again later', 'again in April')]);
    expect(r.status).toBe('APPLIED');
    expect(r.result.document).toContain('Shipped again in April.');
  });

  it.each([
    ['[REQ-12]', 'Acme Billing Service', 'Tracks [REQ-12].', 'Tracks nothing.'],
    ['v2.3.1', 'Install', 'Install v2.3.1 with', 'Install the latest with'],
    ['Acme Billing Service', 'Limits', 'by the Acme Billing Service gateway', 'by the gateway'],
  ])('removing %s without allowing it is rejected; allowing it applies', (token, target, find, replace) => {
    const refused = patch([op(target, find, replace)]);
    expect(refused.status).toBe('REJECTED');
    expect(refused.items[0]!.reasons[0]).toContain(JSON.stringify(token));
    expect(refused.result.document).toBe(DOC);
    const allowed = patch([op(target, find, replace, [token])]);
    expect(allowed.status).toBe('APPLIED');
    expect(allowed.result.document).not.toContain(find);
  });

  it('one failing operation of three leaves the document untouched', () => {
    const r = patch([
      op('Install', 'the installer', 'the new installer'),
      op('Nowhere', 'x', 'y'),
      op('Limits', 'Requests are', 'Calls are'),
    ]);
    expect(r.status).toBe('REJECTED');
    expect(r.items.map((i) => i.decision)).toEqual(['withheld', 'rejected', 'withheld']);
    expect(r.result.document).toBe(DOC);
    expect(r.result.sha256_after).toBe(r.result.sha256_before);
    expect(r.result.diff).toBe('');
  });

  it('rejects an ambiguous target and names both sections', () => {
    const doc = '# Notes\n\none\n\n# Notes\n\ntwo\n';
    const r = patch([op('Notes', 'one', 'uno')], doc);
    expect(r.status).toBe('REJECTED');
    expect(r.items[0]!.reasons[0]).toMatch(/ambiguous: it names 2 sections/);
  });

  it('matches the heading text after trimming, case-sensitively, by source or rendered text', () => {
    const doc = '# Use `npm` *now*\n\nbody text\n';
    expect(patch([op('  Use `npm` *now* ', 'body', 'Body')], doc).status).toBe('APPLIED');
    expect(patch([op('Use npm now', 'body', 'Body')], doc).status).toBe('APPLIED');
    const linked = '# See [the docs](https://x.io) &amp; ![logo](y.png)\n\nbody text\n';
    expect(patch([op('See the docs & logo', 'body', 'Body')], linked).status).toBe('APPLIED');
    const wrongCase = patch([op('use npm now', 'body', 'Body')], doc);
    expect(wrongCase.status).toBe('REJECTED');
    expect(wrongCase.items[0]!.reasons[0]).toMatch(/names no heading/);
  });

  it('renders reference links in headings with the link reference definitions of the whole document', () => {
    const defs = '\n[g]: https://example.com/guide\n[The Guide]: https://example.com/other "Other"\n';
    const doc = (heading: string, tail = defs): string => `## ${heading}\n\nbody text\n${tail}`;
    // Full reference, collapsed and shortcut forms render as their text, like an inline link.
    expect(patch([op('See the guide', 'body', 'Body')], doc('See [the guide][g]')).status).toBe('APPLIED');
    expect(patch([op('See g', 'body', 'Body')], doc('See [g][]')).status).toBe('APPLIED');
    expect(patch([op('See g', 'body', 'Body')], doc('See [g]')).status).toBe('APPLIED');
    // Labels match case-insensitively, as CommonMark normalises them.
    expect(patch([op('See the guide', 'body', 'Body')], doc('See [the guide][G]')).status).toBe('APPLIED');
    expect(patch([op('See THE GUIDE', 'body', 'Body')], doc('See [THE GUIDE]')).status).toBe('APPLIED');
    // The source text still names the heading.
    expect(patch([op('See [the guide][g]', 'body', 'Body')], doc('See [the guide][g]')).status).toBe(
      'APPLIED',
    );
    // A definition far later in the document (another parsing chunk) counts too.
    const far = `\n${'filler paragraph text.\n\n'.repeat(200)}[far]: https://example.com/far\n`;
    expect(patch([op('See it', 'body', 'Body')], doc('See [it][far]', far)).status).toBe('APPLIED');
    // An undefined label stays literal text: only the source text names the heading.
    for (const heading of ['See [the guide][nope]', 'See [nope][]', 'See [nope]']) {
      const r = patch([op(heading.replace(/\[|\]/g, ''), 'body', 'Body')], doc(heading));
      expect(r.status, heading).toBe('REJECTED');
      expect(r.items[0]!.reasons[0]).toMatch(/names no heading/);
      expect(patch([op(heading, 'body', 'Body')], doc(heading)).status, heading).toBe('APPLIED');
    }
    // A definition inside a fenced code block is not a definition.
    const fenced = '\n```\n[g]: https://example.com/guide\n```\n';
    expect(patch([op('See the guide', 'body', 'Body')], doc('See [the guide][g]', fenced)).status).toBe(
      'REJECTED',
    );
  });

  it('ROOT names the text before the first heading', () => {
    const r = patch([op('ROOT', 'Intro text', 'Opening text')]);
    expect(r.status).toBe('APPLIED');
    expect((r.result.document as string).startsWith('Opening text before any heading.')).toBe(true);
  });

  it('rejects an edit that creates a heading or swallows the next one', () => {
    const adds = patch([op('Install', 'with the installer.', 'with the installer.\n\n## Extra')]);
    expect(adds.status).toBe('REJECTED');
    expect(adds.decision_path.find((s) => s.rule === 'headings_unchanged')!.outcome).toBe('fail');
    expect(adds.items[0]!.decision).toBe('rejected');
    const fence = patch([op('Acme Billing Service', 'Tracks [REQ-12].', 'Tracks [REQ-12].\n\n```')]);
    expect(fence.status).toBe('REJECTED');
    expect(fence.items[0]!.reasons.join(' ')).toMatch(/disappeared|differ/);
  });

  it('CRLF documents keep their line endings, and \\n in find/replace is adapted', () => {
    const crlf = DOC.replace(/\n/g, '\r\n');
    const r = patch([op('Release Notes', 'Shipped again later.', 'Shipped again\nlater.')], crlf);
    expect(r.status).toBe('APPLIED');
    const doc = r.result.document as string;
    expect(doc.split('\r\n').length - 1).toBe(doc.split('\n').length - 1);
    expect(doc).toBe(crlf.replace('Shipped again later.', 'Shipped again\r\nlater.'));
  });

  it('identical requests give identical receipts through executeTool', () => {
    const body = JSON.stringify({ document: DOC, operations: [op('Install', 'the installer', 'it')] });
    const a = executeTool('safepatch', Buffer.from(body));
    const b = executeTool('safepatch', Buffer.from(body));
    expect(a.ok && b.ok && a.body === b.body).toBe(true);
  });
});

describe('safepatch input bounds (400)', () => {
  const bad = (body: unknown): string => {
    const out = executeTool('safepatch', Buffer.from(JSON.stringify(body)));
    if (out.ok) throw new Error('expected a 400');
    expect(out.problem.status).toBe(400);
    return JSON.stringify(out.problem.errors);
  };
  const one = [op('ROOT', 'a', 'b')];
  it('document of 200,001 characters', () => {
    expect(bad({ document: 'a'.repeat(200_001), operations: one })).toContain('/document');
  });
  it('51 operations', () => {
    expect(bad({ document: 'a', operations: Array.from({ length: 51 }, () => one[0]) })).toContain(
      '/operations',
    );
  });
  it('operation with empty find', () => {
    expect(bad({ document: 'a', operations: [op('ROOT', '', 'b')] })).toContain('/operations/0/find');
  });
  it('unknown top-level and operation properties', () => {
    expect(bad({ document: 'a', operations: one, extra: 1 })).toContain('/extra');
    expect(bad({ document: 'a', operations: [{ ...one[0], mode: 'all' }] })).toContain('/operations/0/mode');
  });
  it('101 allowed token changes', () => {
    expect(
      bad({
        document: 'a',
        operations: [
          op(
            'ROOT',
            'a',
            'b',
            Array.from({ length: 101 }, (_, i) => `t${i}`),
          ),
        ],
      }),
    ).toContain('/operations/0/allow_token_changes');
  });
});

describe('the patched document stays within the 200,000-character document bound', () => {
  type Step = { rule: string; outcome: string; detail: string };
  const bodyOf = (document: string, operations: PatchOperation[]) => {
    const out = executeTool('safepatch', Buffer.from(JSON.stringify({ document, operations })));
    if (!out.ok) throw new Error(`expected 200, got ${JSON.stringify(out.problem)}`);
    return JSON.parse(out.body) as ReturnType<typeof runSafepatch> & { decision_path: Step[] };
  };
  // ROOT text plus one section; `pad` sets the total length.
  const docOf = (pad: number) => `${'x'.repeat(pad)}\n\n# Notes\n\nKEEP one.\n\nKEEP two.\n`;
  const base = docOf(0).length;

  it('rejects an operation set whose result would exceed the bound, naming the bound and the length', () => {
    const document = docOf(150_000 - base);
    const r = bodyOf(document, [
      op('Notes', 'KEEP one.', 'a'.repeat(30_000)),
      op('Notes', 'KEEP two.', 'b'.repeat(30_018)),
    ]);
    expect(r.status).toBe('REJECTED');
    expect(r.result.document).toBe(document);
    expect(r.result.sha256_after).toBe(r.result.sha256_before);
    expect(r.result.diff).toBe('');
    const step = r.decision_path.find((s) => s.rule === 'document_within_bound')!;
    expect(step.outcome).toBe('fail');
    expect(step.detail).toContain('210,000 characters');
    expect(step.detail).toContain('200,000-character document bound');
    expect(r.items.map((i) => i.decision)).toEqual(['withheld', 'withheld']);
    expect(r.items[0]!.reasons[0]).toContain('210,000 characters');
    expect(r.next_action).toContain('200,000 characters');
  });

  it('a result of exactly 200,000 characters is applied', () => {
    const document = docOf(150_000 - base);
    const r = bodyOf(document, [op('Notes', 'KEEP one.', 'c'.repeat(50_009))]);
    expect(r.status).toBe('APPLIED');
    expect((r.result.document as string).length).toBe(200_000);
    const step = r.decision_path.find((s) => s.rule === 'document_within_bound')!;
    expect(step).toMatchObject({ outcome: 'pass' });
    expect(step.detail).toContain('200,000 characters');
  });

  it('the final document counts, not a longer intermediate one', () => {
    const document = docOf(150_000 - base);
    const r = runSafepatch({
      document,
      // 209,991 characters after the first operation, 150,000 - 9 + 1 after the second.
      operations: [op('Notes', 'KEEP one.', 'd'.repeat(60_000)), op('Notes', 'd'.repeat(60_000), 'y')],
    });
    expect(r.status).toBe('APPLIED');
    expect((r.result.document as string).length).toBe(150_000 - 9 + 1);
  });

  it('a 200,000-character replace on a non-empty document passes the schema and is rejected by the bound', () => {
    const r = bodyOf(docOf(0), [op('Notes', 'KEEP one.', 'e'.repeat(200_000))]);
    expect(r.status).toBe('REJECTED');
    expect(r.result.document).toBe(docOf(0));
    const expected = (base - 9 + 200_000).toLocaleString('en-US');
    expect(r.decision_path.find((s) => s.rule === 'document_within_bound')!.detail).toContain(expected);
  });

  it('a replace over 200,000 characters (5,000,000) is a 400 naming the field', () => {
    const out = executeTool(
      'safepatch',
      Buffer.from(
        JSON.stringify({ document: docOf(0), operations: [op('Notes', 'KEEP one.', 'f'.repeat(5_000_000))] }),
      ),
    );
    if (out.ok) throw new Error('expected a 400');
    expect(out.problem.status).toBe(400);
    expect(JSON.stringify(out.problem.errors)).toContain('/operations/0/replace');
  });
});

describe('prototype names in request text', () => {
  const NAMES = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'];

  it.each(NAMES)(
    '"%s" as a heading, a target, a token and an allow_token_changes entry gives 200',
    (name) => {
      const document = [
        `# ${name}`,
        '',
        `Call ${name} at v1.2.3 per [${name}-1] and \`${name}\`.`,
        '',
        `[${name}]: https://example.com/${name}`,
        '',
        '## Other',
        '',
        `See [${name}] and Acme ${name} Gateway.`,
        '',
      ].join('\n');
      const operations = [
        op(name, 'v1.2.3', 'v1.2.4', [name, '__proto__', 'constructor', 'v1.2.3']),
        op(name, `\`${name}\``, 'it', [`\`${name}\``, 'hasOwnProperty']),
        op('Other', 'See', 'Read', ['__proto__']),
      ];
      const out = executeTool('safepatch', Buffer.from(JSON.stringify({ document, operations })));
      if (!out.ok) throw new Error(`expected 200, got ${JSON.stringify(out.problem)}`);
      expect(out.status).toBe('APPLIED');
      const r = JSON.parse(out.body) as ReturnType<typeof runSafepatch>;
      expect(r.result.document).toContain(`Call ${name} at v1.2.4`);
      // An unknown target or a removal the list does not allow is a stated rejection, not an exception.
      const refused = executeTool(
        'safepatch',
        Buffer.from(
          JSON.stringify({
            document,
            operations: [op('__proto__ x', 'Call', 'Ring'), op(name, 'v1.2.3', 'v2')],
          }),
        ),
      );
      expect(refused.ok && refused.status).toBe('REJECTED');
    },
  );
});
