import { applyPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { runSafepatch } from './safepatch.js';
import type { PatchOperation } from './schema.js';
import { fullDiff } from './unified-diff.js';
import { lcg } from '../../math/lcg.testing.js';

function doc(sections: number, crlf: boolean, trailingNewline: boolean): string {
  let d = 'Preamble line.\n\n';
  for (let i = 0; i < sections; i++) d += `## S${i}\n\nline a${i}\nmarker ${i} here\nline b${i}\n\n`;
  if (!trailingNewline) d = d.trimEnd();
  return crlf ? d.replace(/\n/g, '\r\n') : d;
}

describe('windowed unified diff', () => {
  it.each([
    [1, false, true],
    [2, true, true],
    [3, false, false],
    [4, true, false],
  ])(
    'equals the whole-document diff and applies back (seed %i, crlf %s, trailing newline %s)',
    (seed, crlf, nl) => {
      const rnd = lcg(seed);
      const document = doc(60, crlf, nl);
      const picked = new Set<number>();
      while (picked.size < 12) picked.add(Math.floor(rnd() * 60));
      const replacements = ['marker changed', 'marker\nwith an extra line', '', 'm'];
      const operations: PatchOperation[] = [...picked].map((i) => ({
        target_heading: `S${i}`,
        find: `marker ${i} here`,
        replace: replacements[Math.floor(rnd() * replacements.length)]!,
        allow_token_changes: [String(i)],
      }));
      // Also edit the last section, to reach the end of the document.
      operations.push({ target_heading: 'S59', find: 'line b59', replace: 'line B59' });
      const r = runSafepatch({ document, operations });
      expect(r.status).toBe('APPLIED');
      const after = r.result.document as string;
      expect(r.result.diff).toBe(fullDiff(document, after));
      expect(applyPatch(document, r.result.diff as string)).toBe(after);
    },
  );
});
