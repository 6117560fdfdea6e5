/**
 * Renders docker/nginx/templates/*.template the way the nginx image does at start (envsubst
 * limited to defined variables): every `${NAME}` of the allowed set is replaced; a name of the
 * set without a value is an error naming it, so a half-rendered config never reaches nginx.
 * nginx's own `$variables` carry no braces in the template and are left alone.
 */
import { join } from 'node:path';

export const NGINX_TEMPLATE_VARIABLES = [
  'DOMAIN',
  'SECURE_LINK_SECRET',
  'HTTP_PORT',
  'HTTPS_PORT',
  'TLS_CERT_FILE',
  'TLS_KEY_FILE',
  'MUSIC_API_UPSTREAM',
  'EVAL_UPSTREAM',
  'NGINX_CACHE_DIR',
  'NGINX_RESOLVER',
] as const;

export const NGINX_TEMPLATE_PATH = join('docker', 'nginx', 'templates', 'default.conf.template');

// Characters that would end an nginx token or string and let a value inject directives.
const UNSAFE_VALUE = /[\s;{}'"\\$#]/;

export function renderNginxTemplate(
  template: string,
  values: Partial<Record<string, string | undefined>>,
): string {
  const missing = NGINX_TEMPLATE_VARIABLES.filter((name) => !values[name]);
  if (missing.length > 0) throw new Error(`nginx template: set ${missing.join(', ')}`);
  const unsafe = NGINX_TEMPLATE_VARIABLES.filter((name) => UNSAFE_VALUE.test(values[name] ?? ''));
  if (unsafe.length > 0)
    throw new Error(`nginx template: ${unsafe.join(', ')} must not contain spaces, quotes, ; { } $ # or \\`);
  return template.replace(/\$\{([A-Z0-9_]+)\}/g, (whole, name: string) =>
    (NGINX_TEMPLATE_VARIABLES as readonly string[]).includes(name) ? (values[name] as string) : whole,
  );
}
