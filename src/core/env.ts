/**
 * Reads configuration from the environment once: validates against a TypeBox schema,
 * applies defaults, freezes. A bad or missing variable stops start-up with a message naming
 * every offender, so an operator fixes them all in one go.
 */
import { randomBytes } from 'node:crypto';
import type { Static, TObject } from 'typebox';
import { Ajv } from 'ajv';

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

const SECRET_NAME = /SECRET|PASSWORD|PASS$|SALT|KEY$|TOKEN/;

// Environment values are strings; coerceTypes turns "8080" into 8080 and "true" into true.
const envAjv = new Ajv({ strict: true, allErrors: true, useDefaults: true, coerceTypes: true });

/**
 * Validates the variables the schema names (others are ignored). Empty strings count as
 * unset, because `FOO=` in an env file almost always means "not configured".
 */
export function parseEnv<S extends TObject>(schema: S, env: NodeJS.ProcessEnv): Readonly<Static<S>> {
  const picked: Record<string, string> = {};
  for (const key of Object.keys(schema.properties)) {
    const value = env[key];
    if (value !== undefined && value !== '') picked[key] = value;
  }
  const validate = envAjv.compile(schema);
  if (!validate(picked)) {
    const problems = (validate.errors ?? []).map((e) => {
      const params = e.params as { missingProperty?: string };
      const name = params.missingProperty ?? e.instancePath.replace(/^\//, '');
      // A secret's value is never echoed: start-up errors end up in logs.
      const value: string | undefined = picked[name];
      const shown =
        value === undefined
          ? ''
          : SECRET_NAME.test(name)
            ? ` (got a value of ${String(value).length} characters)`
            : ` (got ${JSON.stringify(value)})`;
      const property: { description?: unknown } | undefined = schema.properties[name];
      const description = typeof property?.description === 'string' ? property.description : undefined;
      return `${name}${shown}: ${e.message ?? 'is invalid'}${description ? ` — ${description}` : ''}`;
    });
    throw new ConfigError(problems);
  }
  return Object.freeze(picked as unknown as Static<S>);
}

export interface SecretOutcome {
  value: string;
  generated: boolean;
}

/**
 * A secret from the environment. In production a missing one is a start-up error; elsewhere
 * a random one is generated for this process (and the caller logs a warning), so a developer
 * can start without configuring anything and nothing secret is ever committed.
 */
export function secretOrDev(name: string, value: string | undefined, production: boolean): SecretOutcome {
  if (value !== undefined && value !== '') return { value, generated: false };
  if (production) throw new ConfigError([`${name}: is required when NODE_ENV=production`]);
  return { value: randomBytes(32).toString('base64url'), generated: true };
}

/** Parses sizes such as "16mb", "500MB", "1024" (bytes). */
export function parseByteSize(text: string): number | undefined {
  const m = /^(\d+(?:\.\d+)?)\s*(b|kb|k|mb|m|gb|g)?$/i.exec(text.trim());
  if (!m) return undefined;
  const unit = (m[2] ?? 'b').toLowerCase();
  const factor = unit.startsWith('g')
    ? 1024 ** 3
    : unit.startsWith('m')
      ? 1024 ** 2
      : unit.startsWith('k')
        ? 1024
        : 1;
  return Math.round(Number(m[1]) * factor);
}
