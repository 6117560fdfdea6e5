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
});
