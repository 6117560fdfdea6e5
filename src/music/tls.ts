/** TLS settings of music-api: TLS 1.2 and 1.3 only; older versions are refused at the handshake. */
import type { ServerOptions } from 'node:https';

export const TLS_VERSIONS = { minVersion: 'TLSv1.2', maxVersion: 'TLSv1.3' } as const;

/** The certificate chain and key (PEM) as the entry point read them from TLS_CERT_FILE and TLS_KEY_FILE. */
export function tlsServerOptions(pem: { cert: Buffer; key: Buffer }): ServerOptions {
  return { cert: pem.cert, key: pem.key, ...TLS_VERSIONS };
}
