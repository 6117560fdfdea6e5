/**
 * `analytics rollup [--now ISO]` and `uploads cleanup [--now ISO]`: run the
 * scheduled housekeeping jobs once, in this process (configuration from the environment).
 */
import { ConfigError } from '../../core/env.js';
import { loadMusicConfig, type MusicConfig } from '../../music/config.js';
import { runAnalyticsRollup, runUploadCleanup } from '../../music/housekeeping.js';
import { createMusicConnections, type MusicConnections } from '../../music/repositories/connections.js';
import type { Command } from './command.js';

function parseNow(args: string[]): number | undefined | 'bad' {
  if (args.length === 0) return undefined;
  if (args.length !== 2 || args[0] !== '--now') return 'bad';
  const ms = Date.parse(args[1] ?? '');
  return Number.isNaN(ms) ? 'bad' : ms;
}

function jobCommand(
  name: string,
  action: string,
  summary: string,
  run: (config: MusicConfig, resources: MusicConnections, nowMs: number | undefined) => Promise<unknown>,
): Command {
  const usage = `${name} ${action} [--now <ISO 8601 instant>]`;
  return {
    name,
    summary,
    usage,
    async run(argv: string[]): Promise<number> {
      const nowMs = parseNow(argv.slice(1));
      if (argv[0] !== action || nowMs === 'bad') {
        process.stderr.write(`usage: ${usage}\n`);
        return 2;
      }
      let config;
      try {
        config = loadMusicConfig(process.env);
      } catch (err) {
        if (!(err instanceof ConfigError)) throw err;
        process.stderr.write(`${name}: ${err.message}\n`);
        return 2;
      }
      const resources = createMusicConnections(config);
      try {
        process.stdout.write(`${JSON.stringify(await run(config, resources, nowMs))}\n`);
        return 0;
      } finally {
        await resources.close();
      }
    },
  };
}

export const analyticsCommand = jobCommand(
  'analytics',
  'rollup',
  'Roll raw plays into daily stats, prune plays older than 48 h, recompute trending (the analytics-rollup job).',
  (config, resources, nowMs) => runAnalyticsRollup(config, resources, nowMs === undefined ? {} : { nowMs }),
);

export const uploadsCommand = jobCommand(
  'uploads',
  'cleanup',
  'Abort multipart uploads left unfinished for 24 h and delete their parts (the upload-cleanup job).',
  (config, resources, nowMs) => runUploadCleanup(config, resources, nowMs === undefined ? {} : { nowMs }),
);
