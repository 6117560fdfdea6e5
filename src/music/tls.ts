/** TLS settings of music-api: TLS 1.2 and 1.3 only; older versions are refused at the handshake. */
import { readFileSync } from 'node:fs';
import type { ServerOptions } from 'node:https';

export const TLS_VERSIONS = { minVersion: 'TLSv1.2', maxVersion: 'TLSv1.3' } as const;

export function tlsServerOptions(files: { certFile: string; keyFile: string }): ServerOptions {
  return { cert: readFileSync(files.certFile), key: readFileSync(files.keyFile), ...TLS_VERSIONS };
}
