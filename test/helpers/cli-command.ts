/**
 * Runs a CLI command (src/main/commands/) inside the test's process, as bin/verifier-music would
 * with `env` added to the environment: its exit code and what it printed. Its standard error is
 * swallowed (the commands' refusals are asserted by exit code); the environment and both streams
 * are put back afterwards.
 */
import type { Command } from '../../src/main/commands/command.js';

export async function runCommand(
  command: Command,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; printed: string }> {
  const saved = { ...process.env };
  const write = process.stdout.write.bind(process.stdout);
  const writeErr = process.stderr.write.bind(process.stderr);
  let printed = '';
  Object.assign(process.env, { LOG_LEVEL: 'silent', ...env });
  process.stdout.write = (chunk: string | Uint8Array) => {
    printed += String(chunk);
    return true;
  };
  process.stderr.write = () => true;
  try {
    return { code: await command.run(args), printed };
  } finally {
    process.stdout.write = write;
    process.stderr.write = writeErr;
    process.env = saved;
  }
}
