import { describe, expect, it } from 'vitest';
import { SPLICE_KEY, splice } from './mcp-endpoint.js';

const receipt = '{"hashes":{"receipt_sha256":"ab"},"items":[{"item_id":"q\\"1"}],"tool":"gate"}';

describe('splicing a receipt text into the serialised MCP answer', () => {
  it('puts the text exactly where the stand-in was, leaving the escaped copy in content alone', () => {
    const answer = {
      jsonrpc: '2.0',
      id: 1,
      result: { content: [{ type: 'text', text: receipt }], structuredContent: { [SPLICE_KEY]: 't1' } },
    };
    const out = splice(JSON.stringify(answer), new Map([['t1', receipt]]));
    expect(out).toContain(`"structuredContent":${receipt}`);
    const parsed = JSON.parse(out);
    expect(parsed.result.structuredContent).toEqual(JSON.parse(receipt));
    expect(parsed.result.content[0].text).toBe(receipt);
  });

  it('rebuilds the answer when the stand-in was written another way (spaces)', () => {
    const answer = { result: { structuredContent: { [SPLICE_KEY]: 't2' } } };
    const out = splice(JSON.stringify(answer, null, 1), new Map([['t2', receipt]]));
    expect(JSON.parse(out).result.structuredContent).toEqual(JSON.parse(receipt));
  });

  it('leaves a stand-in with an unknown token as it is', () => {
    const text = JSON.stringify({ result: { structuredContent: { [SPLICE_KEY]: 'other' } } });
    expect(JSON.parse(splice(text, new Map([['t3', receipt]])))).toEqual(JSON.parse(text));
  });
});
