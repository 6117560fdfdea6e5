/** The project's command-line tool: `node dist/src/main/cli.js <command> ...`. */
import type { Command } from './commands/command.js';
import { receiptVerifyCommand } from './commands/receipt-verify.js';
import { adminCommand } from './commands/admin.js';
import { signUrlCommand } from './commands/sign-url.js';
import { analyticsCommand, uploadsCommand } from './commands/housekeeping.js';
import { opsCommand } from './commands/ops.js';
import { gateCommand } from './commands/gate.js';
import { logCommand } from './commands/log-monitor.js';
import { libraryCommand } from './commands/library.js';

const COMMANDS: Command[] = [
  receiptVerifyCommand,
  adminCommand,
  signUrlCommand,
  analyticsCommand,
  uploadsCommand,
  opsCommand,
  gateCommand,
  logCommand,
  libraryCommand,
];

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) {
    process.stderr.write(
      `usage: cli <command> ...\n\n${COMMANDS.map((c) => `  ${c.usage}\n      ${c.summary}`).join('\n')}\n`,
    );
    return name === undefined || name === '--help' || name === 'help' ? 0 : 2;
  }
  return command.run(rest);
}

process.exitCode = await main(process.argv.slice(2));
