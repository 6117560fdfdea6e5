import { describe, expect, it } from 'vitest';
import { loggerOptions, wantsPrettyLogs } from './logger.js';

describe('log format', () => {
  it('is pretty only in development on a terminal, JSON otherwise', () => {
    expect(wantsPrettyLogs(undefined, true)).toBe(true);
    expect(wantsPrettyLogs('development', true)).toBe(true);
    expect(wantsPrettyLogs('development', false)).toBe(false);
    expect(wantsPrettyLogs('production', true)).toBe(false);
    expect(wantsPrettyLogs('test', true)).toBe(false);
  });

  it("uses pino's pretty transport when asked, none otherwise", () => {
    expect(loggerOptions('info', 'eval', 'development', true)).toMatchObject({
      transport: { target: 'pino-pretty' },
    });
    expect(loggerOptions('info', 'eval', 'development', false)).not.toHaveProperty('transport');
    expect(loggerOptions('silent', 'eval', 'development', true)).toBe(false);
  });
});
