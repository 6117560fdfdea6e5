/** Entry of the `music-api` process: configuration, connections, app, listeners, shutdown. */
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { ConfigError } from '../core/env.js';
import { securityHeaders } from '../core/security-headers.js';
import { installGracefulShutdown } from '../core/shutdown.js';
import { buildMusicApp } from '../music/app.js';
import { loadMusicConfig } from '../music/config.js';
import { createHttpsRedirectServer } from '../music/https-redirect.js';
import { ensureObjectStores } from '../music/repositories/object-store/index.js';
import { createMusicConnections } from '../music/repositories/connections.js';
import { tlsServerOptions } from '../music/tls.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadMusicConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`music-api: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const connections = createMusicConnections(config);
  const https = config.tls
    ? tlsServerOptions({ cert: readFileSync(config.tls.certFile), key: readFileSync(config.tls.keyFile) })
    : undefined;
  const app = buildMusicApp(config, connections, https ? { https } : {});
  for (const name of config.generatedSecrets) {
    app.log.warn(
      { variable: name },
      `${name} is not set: using a random secret for this run only (set it in .env; required in production)`,
    );
  }
  if (!config.smtp)
    app.log.info(
      'mail: SMTP_HOST is not set, so email verification is skipped (nothing requires a verified address) and password reset by mail answers 503; operators reset passwords with "cli admin reset-password HANDLE"',
    );
  else
    app.log.info(
      { smtpHost: config.smtp.host, from: config.mail.from, publicUrl: config.mail.publicUrl },
      'mail: on',
    );
  await ensureObjectStores(connections.stores);

  let redirect: Server | undefined;
  const closeRedirect = async (): Promise<void> => {
    if (!redirect) return;
    redirect.close();
    redirect.closeAllConnections();
    await once(redirect, 'close');
  };
  installGracefulShutdown({
    app,
    closers: [closeRedirect, () => connections.close()],
    logger: app.log,
    timeoutMs: 15_000,
  });

  if (config.tls) {
    await app.listen({ port: config.tls.port, host: config.host });
    redirect = createHttpsRedirectServer({
      domain: config.domain,
      httpsPort: config.tls.port,
      headers: securityHeaders(config.domain),
    });
    redirect.listen(config.port, config.host);
    await once(redirect, 'listening');
    app.log.info(
      { https: config.tls.port, http: config.port },
      'music-api listening (HTTPS; HTTP redirects)',
    );
  } else {
    await app.listen({ port: config.port, host: config.host });
    app.log.info({ port: config.port, store: config.objectStore.kind }, 'music-api listening');
  }
}

await main();
