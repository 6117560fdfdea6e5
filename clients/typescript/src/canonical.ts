/**
 * RFC 8785 (JSON Canonicalization Scheme): object members sorted by the UTF-16 code units of
 * their names, no whitespace, strings and numbers as ECMAScript's JSON.stringify writes them
 * (RFC 8785 section 3.2.2 and 3.2.3 adopt exactly those rules). Written for this package so it
 * has no dependency on the service's code; test/receipts.test.ts holds it to the service's
 * receipts.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new RangeError('RFC 8785 has no form for a non-finite number');
    return JSON.stringify(value);
  }
  if (Array.isArray(value))
    return `[${value.map((v) => canonicalJson(v === undefined ? null : v)).join(',')}]`;
  if (typeof value === 'object') {
    const members: string[] = [];
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) members.push(`${JSON.stringify(key)}:${canonicalJson(v)}`);
    }
    return `{${members.join(',')}}`;
  }
  throw new TypeError(`RFC 8785 has no form for a ${typeof value}`);
}
