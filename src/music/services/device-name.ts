/** A short, readable name of the client from its User-Agent, for the sessions list ("Firefox on Linux"). */

const BROWSERS: readonly (readonly [string, string])[] = [
  ['Edg/', 'Edge'],
  ['EdgA/', 'Edge'],
  ['EdgiOS/', 'Edge'],
  ['OPR/', 'Opera'],
  ['SamsungBrowser/', 'Samsung Internet'],
  ['FxiOS/', 'Firefox'],
  ['CriOS/', 'Chrome'],
  ['Firefox/', 'Firefox'],
  ['Chromium/', 'Chromium'],
  ['HeadlessChrome/', 'Headless Chrome'],
  ['Chrome/', 'Chrome'],
  ['Safari/', 'Safari'],
  ['curl/', 'curl'],
  ['node', 'Node.js'],
];

const SYSTEMS: readonly (readonly [string, string])[] = [
  ['Android', 'Android'],
  ['iPhone', 'iOS'],
  ['iPad', 'iPadOS'],
  ['Windows', 'Windows'],
  ['Mac OS X', 'macOS'],
  ['CrOS', 'ChromeOS'],
  ['Linux', 'Linux'],
];

export function deviceName(userAgent: string | undefined): string {
  if (userAgent === undefined || userAgent.trim() === '') return 'Unknown client';
  const browser = BROWSERS.find(([needle]) => userAgent.includes(needle))?.[1];
  const system = SYSTEMS.find(([needle]) => userAgent.includes(needle))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  if (browser ?? system) return (browser ?? system) as string;
  // Unknown: the agent's first word, printable characters only, bounded.
  const first = (userAgent.split(' ')[0] ?? '').replace(/[^\x20-\x7e]/g, '').slice(0, 60);
  return first === '' ? 'Unknown client' : first;
}
