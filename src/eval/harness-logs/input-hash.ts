import { createHash } from 'node:crypto';

/** SHA-256 (hex) of a value's JSON text: equal inputs written alike hash alike. */
export function inputHash(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return createHash('sha256')
    .update(typeof value === 'string' ? value : JSON.stringify(value))
    .digest('hex');
}
