/** Variables only the operator commands read; everything else comes from the services' own config. */
import { Type } from 'typebox';
import { parseEnv } from '../../core/env.js';

export const CommandEnv = Type.Object({
  ADMIN_PASSWORD: Type.Optional(
    Type.String({ description: 'password of the account `admin create` makes (else read from stdin)' }),
  ),
  SECURE_LINK_SECRET: Type.Optional(
    Type.String({
      description: 'checked by `sign-url` to be set: a throwaway secret signs URLs nginx refuses',
    }),
  ),
});

export function commandEnv(env: NodeJS.ProcessEnv): { adminPassword?: string; secureLinkSecretSet: boolean } {
  const e = parseEnv(CommandEnv, env);
  return {
    ...(e.ADMIN_PASSWORD !== undefined ? { adminPassword: e.ADMIN_PASSWORD } : {}),
    secureLinkSecretSet: e.SECURE_LINK_SECRET !== undefined,
  };
}
