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
import { databaseErrorLine, isDatabaseOutage } from '../music/repositories/database-errors.js';

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
  try {
    return await command.run(rest);
  } catch (err) {
    // An operator's fix is in the URL or the server, not in a stack trace of the database client.
    if (!isDatabaseOutage(err)) throw err;
    process.stderr.write(
      `${command.name}: the database cannot be used (${databaseErrorLine(err)}); check DATABASE_URL and that PostgreSQL is running and migrated (make start does both).\n`,
    );
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
