import { analyse } from 'scslre';
import { describe, expect, it } from 'vitest';
import { codeSpans, protectedTokens, tokenChange, TOKEN_RE } from './protected-tokens.js';

const texts = (s: string) => protectedTokens(s).map((t) => `${t.cls}:${t.text}`);

describe('protected tokens', () => {
  it('finds every class, first class wins where they overlap', () => {
    expect(
      texts(
        'The Acme Billing Service [REQ-12] ships v2.3.1 on 2025-03-01 (March 3, 2025) at https://x.io/a(b). ' +
          'It costs 1,000.50 or 12%, see `npm i v9` and [x].',
      ),
    ).toEqual([
      'phrase:Acme Billing Service',
      'bracketed_id:[REQ-12]',
      'version:v2.3.1',
      'date:2025-03-01',
      'date:March 3, 2025',
      'url:https://x.io/a(b)',
      'number:1,000.50',
      'number:12%',
      'inline_code:`npm i v9`',
    ]);
  });

  it('code spans follow CommonMark run lengths, stay on one line and are linear on hostile input', () => {
    const s = 'a `x` b ``y ` z`` c `open\n`close` d';
    expect(codeSpans(s).map(([a, b]) => s.slice(a, b))).toEqual(['`x`', '``y ` z``', '`close`']);
    const hostile = Array.from({ length: 600 }, (_, i) => '`'.repeat(i + 1) + 'x').join('');
    expect(codeSpans(hostile)).toEqual([]);
  });

  it('counts a token removed once per lost occurrence', () => {
    expect(tokenChange('v1 and v1', 'v1 and v2')).toEqual({
      removed: [{ cls: 'version', text: 'v1' }],
      added: [{ cls: 'version', text: 'v2' }],
    });
  });

  it('the combined token pattern has no super-linear quantifier (the one eslint-plugin-regexp cannot see)', () => {
    const { reports } = analyse(TOKEN_RE);
    expect(reports.map((r) => `${r.type} on a run of ${JSON.stringify(r.character.pick)}`)).toEqual([]);
  });

  it('a phrase starts at a word start, so one long capitalised word is one scan', () => {
    expect(texts('iPhone Pro and x-Ray Vision, but Acme Billing')).toEqual(['phrase:Acme Billing']);
    expect(texts('Q'.repeat(199_000) + 'X')).toEqual([]);
  });
});
