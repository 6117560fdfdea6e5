/**
 * A one-line, human-readable description of a JSON request-body schema, for the `hint` of a
 * 400: what the route takes, field by field, so a client that sent text or a wrong shape can
 * correct it without opening the source.
 */

interface Schema {
  type?: string | string[];
  description?: string;
  format?: string;
  enum?: unknown[];
  const?: unknown;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  items?: Schema;
  anyOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: boolean | Schema;
}

function typeName(s: Schema): string {
  if (s.enum) return `one of ${s.enum.map((v) => JSON.stringify(v)).join(', ')}`;
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.anyOf) {
    const consts = s.anyOf.every((o) => o.const !== undefined);
    return consts
      ? `one of ${s.anyOf.map((o) => JSON.stringify(o.const)).join(', ')}`
      : s.anyOf.map(typeName).join(' or ');
  }
  const type = Array.isArray(s.type) ? s.type.join(' or ') : (s.type ?? 'any value');
  return type === 'array' && s.items ? `array of ${typeName(s.items)}` : type;
}

function bounds(s: Schema): string[] {
  const out: string[] = [];
  if (s.format) out.push(s.format);
  if (s.minLength !== undefined && s.minLength > 0) out.push(`at least ${s.minLength} characters`);
  if (s.maxLength !== undefined) out.push(`at most ${s.maxLength} characters`);
  if (s.minimum !== undefined) out.push(`>= ${s.minimum}`);
  if (s.maximum !== undefined) out.push(`<= ${s.maximum}`);
  if (s.minItems !== undefined && s.minItems > 0) out.push(`at least ${s.minItems} items`);
  if (s.maxItems !== undefined) out.push(`at most ${s.maxItems} items`);
  return out;
}

function field(name: string, s: Schema, required: boolean): string {
  const notes = s.description ? [s.description] : bounds(s);
  return (
    `"${name}"${required ? '' : ' (optional)'}: ${typeName(s)}` +
    (notes.length ? ` (${notes.join(', ')})` : '')
  );
}

export function describeBodySchema(schema: unknown): string {
  const s = schema as Schema;
  if (s.type !== 'object' || !s.properties) return `a JSON ${typeName(s)}.`;
  const required = new Set(s.required ?? []);
  const fields = Object.entries(s.properties).map(([name, p]) => field(name, p, required.has(name)));
  const closed = s.additionalProperties === false ? '; no other fields' : '';
  return `a JSON object {${fields.join(', ')}}${closed}.`;
}
