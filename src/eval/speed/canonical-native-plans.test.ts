/** The native canonicaliser's defaults plans against ajv-style defaults on the parsed value (canonical-native.test.ts). */
import { describe, expect, it } from 'vitest';
import type { CompiledPlan, PlanNode } from './canonical-native.js';
import { nativeHarness, reference } from './canonical-native.testing.js';

const harness = nativeHarness();

describe.skipIf(harness === null)('native canonical JSON: defaults plans', () => {
  const { canonicalize, compilePlan, run, same } = harness!;

  it('inserts absent defaults at the top level in sorted place, never overwriting', () => {
    const plan: PlanNode = {
      props: { a: { default: '1' }, m: { default: '{"x":[]}' }, zz: { default: '"z"' }, b: {} },
    };
    const compiled = compilePlan(plan);
    expect(run('{"c":true}', compiled)).toBe('{"a":1,"c":true,"m":{"x":[]},"zz":"z"}');
    expect(run('{}', compiled)).toBe('{"a":1,"m":{"x":[]},"zz":"z"}');
    expect(run('{"m":null,"a":"mine"}', compiled)).toBe('{"a":"mine","m":null,"zz":"z"}');
    expect(run('{"zz":0,"m":1,"a":2}', compiled)).toBe('{"a":2,"m":1,"zz":0}');
    // A plan for objects ignores other values.
    expect(run('[1,{"q":1}]', compiled)).toBe('[1,{"q":1}]');
    expect(run('"text"', compiled)).toBe('"text"');
    for (const text of ['{"c":true}', '{}', '{"m":null,"a":"mine"}', '{"b":{"a":1}}']) same(text, plan);
  });

  it('inserts defaults in nested objects, array items and additional properties', () => {
    const inner: PlanNode = { props: { on: { default: 'false' }, id: {} } };
    const plan: PlanNode = {
      props: {
        config: { node: { props: { level: { default: '3' }, tags: { node: { items: inner } } } } },
        list: { node: { items: inner } },
      },
      additional: { props: { extra: { default: '[1,2]' } } },
    };
    const compiled = compilePlan(plan);
    expect(
      run('{"config":{"tags":[{"id":1},{"on":true}]},"list":[{},7,{"id":"x"}],"z":{},"y":[]}', compiled),
    ).toBe(
      '{"config":{"level":3,"tags":[{"id":1,"on":false},{"on":true}]},"list":[{"on":false},7,{"id":"x","on":false}],"y":[],"z":{"extra":[1,2]}}',
    );
    // `config` is listed in props, so `additional` does not apply to it.
    expect(run('{"config":{}}', compiled)).toBe('{"config":{"level":3}}');
    same('{"config":{"tags":[{"id":1},{"on":true}]},"list":[{},7,{"id":"x"}],"z":{},"y":[]}', plan);
    same('{"z":{"extra":null},"config":[],"list":{}}', plan);
  });

  it('sorts inserted keys by UTF-16 code units and applies plans to duplicate keys', () => {
    const plan: PlanNode = {
      props: {
        '\ufb33': { default: '1' },
        '\ud83d\ude00': { default: '2' },
        '\ud800': { default: '3' },
        é: { default: '4' },
        '\n': { default: '5' },
        d: { node: { props: { k: { default: '0' } } } },
      },
    };
    // An own "__proto__" key, as JSON.parse would make it (an object literal would not).
    Object.defineProperty(plan.props, '__proto__', { value: { default: '6' }, enumerable: true });
    const compiled = compilePlan(plan);
    for (const text of ['{}', '{"a":0,"\\ud800":9}', '{"d":{},"d":{"q":1}}', '{"\\uFB33":null,"zzz":[]}']) {
      expect(run(text, compiled), text).toBe(reference(text, plan));
    }
    expect(run('{}', compiled)).toBe('{"\\n":5,"__proto__":6,"é":4,"\\ud800":3,"\ud83d\ude00":2,"\ufb33":1}');
  });

  it('compiles shared and recursive sub-plans', () => {
    const tree: PlanNode = { props: { kids: {}, label: { default: '""' } } };
    tree.props!.kids!.node = { items: tree };
    same('{"kids":[{"kids":[{}]},{"label":"x","kids":[]}]}', tree);
    expect(run('{"kids":[{"kids":[{}]}]}', compilePlan(tree))).toBe(
      '{"kids":[{"kids":[{"label":""}],"label":""}],"label":""}',
    );
  });

  it('rejects malformed plans with a TypeError', () => {
    const bad: unknown[] = [
      null,
      'x',
      [],
      { prop: {} },
      { props: [] },
      { props: { a: 1 } },
      { props: { a: { default: 1 } } },
      { props: { a: { default: '{ }' } } },
      { props: { a: { default: '{"b":1,"a":2}' } } },
      { props: { a: { default: '1.0' } } },
      { props: { a: { default: 'nope' } } },
      { props: { a: { dflt: '1' } } },
      { props: { a: { node: 'x' } } },
      { items: 5 },
      { additional: [] },
    ];
    for (const plan of bad)
      expect(() => compilePlan(plan as PlanNode), JSON.stringify(plan)).toThrow(TypeError);
    expect(() => canonicalize(Buffer.from('1'), {} as CompiledPlan)).toThrow(TypeError);
    expect(() => canonicalize('1' as unknown as Uint8Array)).toThrow(TypeError);
    expect(() => canonicalize(new Uint16Array(2) as unknown as Uint8Array)).toThrow(TypeError);
  });
});
