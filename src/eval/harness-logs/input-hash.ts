import { createHash } from 'node:crypto';

/** SHA-256 (hex) of a value's JSON text: equal inputs written alike hash alike. */
export function inputHash(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  return createHash('sha256')
    .update(typeof value === 'string' ? value : JSON.stringify(value))
    .digest('hex');
}

/**
 * A value's input as text for the leakage tiers: a string as is; chat messages (Inspect's
 * ChatMessage list) and content parts by their text; an object by its text fields in key order
 * (a dataset row, promptfoo vars). Null when there is no text.
 */
export function inputText(value: unknown): string | null {
  const parts: string[] = [];
  collectText(value, parts, 0);
  const text = parts.join('\n').trim();
  return text === '' ? null : text;
}

function collectText(value: unknown, out: string[], depth: number): void {
  if (depth > 8 || value === null || value === undefined) return;
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'number' || typeof value === 'boolean') out.push(String(value));
  else if (Array.isArray(value)) for (const v of value) collectText(v, out, depth + 1);
  else if (typeof value === 'object') {
    const rec = value as Record<string, unknown>;
    // A chat message or content part: its text only, not its role or type.
    if ('content' in rec && ('role' in rec || 'source' in rec)) collectText(rec.content, out, depth + 1);
    else if (typeof rec.text === 'string' && rec.type === 'text') out.push(rec.text);
    else for (const k of Object.keys(rec).sort()) collectText(rec[k], out, depth + 1);
  }
}
