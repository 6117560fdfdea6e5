/** Entry of the `eval` process: configuration, app, listen, graceful shutdown. */
import { ConfigError } from '../core/env.js';
import { installGracefulShutdown } from '../core/shutdown.js';
import { buildEvalApp } from '../eval/app.js';
import { loadEvalConfig } from '../eval/config.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadEvalConfig(process.env);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`eval: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
  const app = await buildEvalApp(config);
  installGracefulShutdown({ app, closers: [], logger: app.log, timeoutMs: config.shutdownTimeoutMs });
  await app.listen({ port: config.port, host: config.host });
  app.log.info({ port: config.port, pool: config.poolSize }, 'eval service listening');
}

await main();
