import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractRatio, formatVerdicts, judgeFloors, parseFloors } from './bench-floors.js';

const entries = parseFloors({
  floors: [
    { name: 'signed / bare', bench: 'delivery', pattern: 'Signed / bare: \\*\\*([0-9.]+)\\*\\*', floor: 0.6 },
    { name: 'ours / lib', bench: 'json', pattern: 'ours = \\*\\*([0-9.]+)\\*\\*', floor: 1.2 },
  ],
});

describe('latency guard floors', () => {
  it('passes a ratio at or above its floor and fails one below', () => {
    const verdicts = judgeFloors(entries, {
      delivery: 'x\nSigned / bare: **0.60** (target >= 0.6)\n',
      json: '`canonicalize` / ours = **1.19**.',
    });
    expect(verdicts.map((v) => [v.ratio, v.ok])).toEqual([
      [0.6, true],
      [1.19, false],
    ]);
    expect(formatVerdicts(verdicts)).toBe(
      'ok   signed / bare: 0.60 (floor 0.60)\nFAIL ours / lib: 1.19 (floor 1.20)',
    );
  });

  it('fails a ratio it cannot find, and a bench that wrote no report', () => {
    const verdicts = judgeFloors(entries, { delivery: 'Signed / bare: n/a' });
    expect(verdicts.every((v) => !v.ok && v.ratio === undefined)).toBe(true);
    expect(extractRatio('ratio **abc**', '\\*\\*([0-9.]+)\\*\\*')).toBeUndefined();
  });

  it('refuses a floors file without floors, or with an absolute figure in place of a ratio', () => {
    expect(() => parseFloors({})).toThrow(/non-empty list/);
    expect(() => parseFloors({ floors: [{ name: 'x', bench: 'b', pattern: '(1)', floor: 0 }] })).toThrow(
      /positive ratio/,
    );
    expect(() => parseFloors({ floors: [{ name: 'x', bench: 'b', pattern: '1', floor: 1 }] })).toThrow(
      /needs a group/,
    );
  });

  it('reads the project floors file, and each pattern finds its ratio in that bench’s last report', () => {
    const root = join(import.meta.dirname, '..', '..');
    const floors = parseFloors(JSON.parse(readFileSync(join(root, 'bench', 'floors.json'), 'utf8')));
    for (const f of floors) {
      const report = readFileSync(join(root, 'bench', 'results', `${f.bench}.md`), 'utf8');
      expect(extractRatio(report, f.pattern), f.name).toBeGreaterThan(0);
    }
  });
});
