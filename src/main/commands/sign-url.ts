/** `sign-url <path> [--ttl <seconds>] [--base <url>]`: a signed /media/hls/ URL, as the API gives out. */
import { parseArgs } from 'node:util';
import { ConfigError } from '../../core/env.js';
import { loadMusicConfig } from '../../music/config.js';
import { HLS_MOUNT } from '../../music/services/media-delivery.js';
import { normaliseRequestPath } from '../../music/services/media-path.js';
import { signedUrl } from '../../music/services/secure-link.js';
import type { Command } from './command.js';
import { commandEnv } from './command-env.js';

export const signUrlCommand: Command = {
  name: 'sign-url',
  summary: 'Print a signed HLS media URL (SECURE_LINK_SECRET from the environment; 3600 s unless --ttl).',
  usage: 'sign-url <path under /media/hls/> [--ttl <seconds>] [--base <https://host>]',
  run(argv: string[]): Promise<number> {
    let args;
    try {
      args = parseArgs({
        args: argv,
        allowPositionals: true,
        options: { ttl: { type: 'string' }, base: { type: 'string' } },
      });
    } catch (err) {
      process.stderr.write(`sign-url: ${(err as Error).message}\nusage: ${signUrlCommand.usage}\n`);
      return Promise.resolve(2);
    }
    const [given] = args.positionals;
    if (given === undefined || args.positionals.length !== 1) {
      process.stderr.write(`usage: ${signUrlCommand.usage}\n`);
      return Promise.resolve(2);
    }
    if (!commandEnv(process.env).secureLinkSecretSet) {
      process.stderr.write(
        'sign-url: SECURE_LINK_SECRET is not set; a URL signed with a throwaway secret would be refused by the server.\n',
      );
      return Promise.resolve(2);
    }
    let config;
    try {
      config = loadMusicConfig(process.env);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      process.stderr.write(`sign-url: ${err.message}\n`);
      return Promise.resolve(2);
    }
    const ttl = args.values.ttl === undefined ? config.secureLink.ttlSeconds : Number(args.values.ttl);
    if (!Number.isInteger(ttl) || ttl < 1 || ttl > 31_536_000) {
      process.stderr.write('sign-url: --ttl must be a whole number of seconds from 1 to 31536000.\n');
      return Promise.resolve(2);
    }
    const normalised = normaliseRequestPath(
      given.startsWith(HLS_MOUNT) ? given : HLS_MOUNT + given.replace(/^\/+/, ''),
    );
    if (!normalised.ok || !normalised.path.startsWith(HLS_MOUNT) || normalised.path === HLS_MOUNT) {
      process.stderr.write(
        `sign-url: ${JSON.stringify(given)} is not a path of a file under ${HLS_MOUNT}.\n`,
      );
      return Promise.resolve(2);
    }
    const base = (args.values.base ?? '').replace(/(?<!\/)\/+$/, '');
    process.stdout.write(
      `${base}${signedUrl(normalised.path, config.secureLink.secret, ttl, Date.now() / 1000)}\n`,
    );
    return Promise.resolve(0);
  },
};
