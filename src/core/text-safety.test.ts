import { describe, expect, it } from 'vitest';
import { refusedCharacter, textSafetyErrors, withoutRefusedCharacters } from './text-safety.js';

describe('text safety', () => {
  it('refuses control, bidi and invisible characters and lone surrogates', () => {
    expect(refusedCharacter('a\u0000b')).toBe('U+0000');
    expect(refusedCharacter('evil\u202Etxt')).toBe('U+202E');
    expect(refusedCharacter('x\u200By')).toBe('U+200B');
    expect(refusedCharacter('\uD800')).toBe('U+D800');
    expect(refusedCharacter('👩‍💻 ok')).toBeUndefined();
  });

  it('refuses noncharacters (XML cannot hold U+FFFE/U+FFFF), in every plane', () => {
    expect(refusedCharacter('Alice\uffff')).toBe('U+FFFF');
    expect(refusedCharacter('\ufffe', true)).toBe('U+FFFE');
    expect(refusedCharacter('a\ufdd0')).toBe('U+FDD0');
    expect(refusedCharacter('a\ufdef')).toBe('U+FDEF');
    expect(refusedCharacter('\u{1fffe}')).toBe('U+1FFFE');
    expect(refusedCharacter('\u{10ffff}')).toBe('U+10FFFF');
    expect(refusedCharacter('\ufdcf\ufdf0\ufffd\u{1f3b5}')).toBeUndefined();
    expect(textSafetyErrors('run\uffff', '/publish/display_name')[0]?.message).toContain('U+FFFF');
    expect(withoutRefusedCharacters('ti\ufffetle\uffff')).toBe('title');
  });

  it('lets multi-line prose keep tabs and line breaks, and nothing else', () => {
    const errors = textSafetyErrors({ title: 'a\nb', description: 'line 1\r\n\tline 2', body: 'x\ny' });
    expect(errors.map((e) => e.instancePath)).toEqual(['/title']);
    expect(textSafetyErrors({ description: 'bell\u0007' }).map((e) => e.params)).toEqual([
      { character: 'U+0007' },
    ]);
  });

  it('refuses tag characters outside a flag, U+180E, line separators in one-line text, and text with nothing visible', () => {
    // "ASCII smuggling": tag letters hide text from readers while a model still reads it.
    expect(refusedCharacter('hi\u{e0041}\u{e0042}')).toBe('U+E0041');
    expect(
      refusedCharacter('flag \u{1f3f4}\u{e0067}\u{e0062}\u{e0073}\u{e0063}\u{e0074}\u{e007f} ok'),
    ).toBeUndefined();
    expect(refusedCharacter('a\u180eb')).toBe('U+180E');
    expect(refusedCharacter('one\u2028two')).toBe('U+2028');
    expect(refusedCharacter('one\u2029two', true)).toBeUndefined();
    for (const [blank, found] of [
      ['\u3164', 'U+3164'],
      ['\u2800', 'U+2800'],
      ['\u00ad', 'U+00AD'],
      ['\ufe0f', 'U+FE0F'],
      [' \u115f\u1160 ', 'U+115F'],
      ['\uffa0', 'U+FFA0'],
    ] as const)
      expect(refusedCharacter(blank), found).toBe(found);
    // Beside something visible they are ordinary: Hangul spelling, a soft hyphen in a word, an emoji's selector.
    expect(refusedCharacter('한\u3164글 Braille\u2800dots co\u00adop \u2764\ufe0f')).toBeUndefined();
    // Empty and spaces-only text is the services' to judge (a name "needs at least one character").
    expect(refusedCharacter('   ')).toBeUndefined();
    expect(withoutRefusedCharacters('a\u2028b\u{e0041}')).toBe('a b');
  });
});
