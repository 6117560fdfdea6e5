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
    const a = executeTool('safepatch', body);
    const b = executeTool('safepatch', body);
    expect(a.ok && b.ok && a.body === b.body).toBe(true);
  });
});

describe('safepatch input bounds (400)', () => {
  const bad = (body: unknown): string => {
    const out = executeTool('safepatch', JSON.stringify(body));
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
