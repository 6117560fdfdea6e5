import { describe, expect, it } from 'vitest';
import { refusedCharacter, textSafetyErrors } from './text-safety.js';

describe('text safety', () => {
  it('refuses control, bidi and invisible characters and lone surrogates', () => {
    expect(refusedCharacter('a\u0000b')).toBe('U+0000');
    expect(refusedCharacter('evil\u202Etxt')).toBe('U+202E');
    expect(refusedCharacter('x\u200By')).toBe('U+200B');
    expect(refusedCharacter('\uD800')).toBe('U+D800');
    expect(refusedCharacter('👩‍💻 ok')).toBeUndefined();
  });

  it('lets multi-line prose keep tabs and line breaks, and nothing else', () => {
    const errors = textSafetyErrors({ title: 'a\nb', description: 'line 1\r\n\tline 2', body: 'x\ny' });
    expect(errors.map((e) => e.instancePath)).toEqual(['/title']);
    expect(textSafetyErrors({ description: 'bell\u0007' }).map((e) => e.params)).toEqual([
      { character: 'U+0007' },
    ]);
  });
});
