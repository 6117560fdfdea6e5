/** What an `ops` subcommand reads and writes: the environment and two output streams (tests pass their own). */
import { ConfigError } from '../../core/env.js';
import { loadMusicConfig, type MusicConfig } from '../../music/config.js';

export interface OpsIo {
  env: NodeJS.ProcessEnv;
  out: (text: string) => void;
  err: (text: string) => void;
  now: () => Date;
}

export const processIo: OpsIo = {
  env: process.env,
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  now: () => new Date(),
};

/** The music configuration, or undefined after reporting what is wrong (exit 2). */
export function opsConfig(io: OpsIo, sub: string): MusicConfig | undefined {
  try {
    return loadMusicConfig(io.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    io.err(`ops ${sub}: ${err.message}\n`);
    return undefined;
  }
}
