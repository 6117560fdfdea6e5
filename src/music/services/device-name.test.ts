import { describe, expect, it } from 'vitest';
import { deviceName } from './device-name.js';

describe('deviceName', () => {
  it('names the browser and the system of real User-Agents', () => {
    const cases: [string, string][] = [
      [
        'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
        'Chrome on Linux',
      ],
      [
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
        'Safari on iOS',
      ],
      [
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/126.0.6478.54 Mobile/15E148 Safari/604.1',
        'Chrome on iOS',
      ],
      [
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0',
        'Firefox on Windows',
      ],
      [
        'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36',
        'Samsung Internet on Android',
      ],
      [
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0',
        'Edge on macOS',
      ],
      ['curl/8.5.0', 'curl'],
      ['', 'Unknown client'],
      [undefined as unknown as string, 'Unknown client'],
      ['DSub/5.5.2', 'DSub/5.5.2'],
    ];
    for (const [ua, name] of cases) expect(deviceName(ua || undefined), ua).toBe(name);
  });

  it('reads a hostile 100 kB header in linear time, naming no more than 60 printable characters', () => {
    const hostile = `${'\u0001('.repeat(50_000)} x`;
    const started = performance.now();
    const name = deviceName(hostile);
    expect(performance.now() - started).toBeLessThan(200);
    expect(name.length).toBeLessThanOrEqual(60);
    expect(name).toMatch(/^[\x20-\x7e]*$/);
  });
});
