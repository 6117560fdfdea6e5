/** Entry of the `eval` process: configuration, app, listen, graceful shutdown. */
import type { FastifyInstance } from 'fastify';
import { ConfigError } from '../core/env.js';
import { installGracefulShutdown } from '../core/shutdown.js';
import { buildEvalApp } from '../eval/app.js';
import { loadEvalConfig, type EvalConfig } from '../eval/config.js';

async function configure(): Promise<{ config: Readonly<EvalConfig>; app: FastifyInstance }> {
  try {
    const config = loadEvalConfig(process.env);
    return { config, app: await buildEvalApp(config) };
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`eval: ${err.message}\n`);
      process.exit(2);
    }
    throw err;
  }
}

const { config, app } = await configure();
installGracefulShutdown({ app, closers: [], logger: app.log, timeoutMs: config.shutdownTimeoutMs });
await app.listen({ port: config.port, host: config.host });
app.log.info({ port: config.port, pool: config.poolSize }, 'eval service listening');
