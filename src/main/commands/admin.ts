/**
 * `admin promote <handle>` gives an existing account the admin role; `admin create <handle>
 * <email>` creates an admin account. The password is read from ADMIN_PASSWORD or, when that is
 * unset, from the first line of standard input: never from the command line, which other
 * users of the machine can read in the process list.
 */
import { createInterface } from 'node:readline';
import { AppError } from '../../core/errors.js';
import { ConfigError } from '../../core/env.js';
import { compileValidator } from '../../core/validation.js';
import { loadMusicConfig } from '../../music/config.js';
import { createPrismaClient } from '../../music/repositories/prisma.js';
import { PrismaUserRepository } from '../../music/repositories/user-repository.js';
import { SignupBody } from '../../music/schemas/auth.js';
import { normaliseEmail, normaliseHandle } from '../../music/services/auth-service.js';
import { assertPasswordPolicy } from '../../music/services/password-policy.js';
import { hashPassword } from '../../music/services/passwords.js';
import type { Command } from './command.js';
import { commandEnv } from './command-env.js';

const signup = compileValidator(SignupBody);

async function readPassword(): Promise<string | undefined> {
  const { adminPassword } = commandEnv(process.env);
  if (adminPassword) return adminPassword;
  if (process.stdin.isTTY) process.stderr.write('Password for the new admin: ');
  const rl = createInterface({ input: process.stdin });
  for await (const line of rl) {
    rl.close();
    return line;
  }
  return undefined;
}

export const adminCommand: Command = {
  name: 'admin',
  summary: 'Create an admin account, or promote an existing one (DATABASE_URL from the environment).',
  usage: 'admin promote <handle> | admin create <handle> <email>   (password: ADMIN_PASSWORD or stdin)',
  async run(argv: string[]): Promise<number> {
    const [action, ...rest] = argv;
    if (!((action === 'promote' && rest.length === 1) || (action === 'create' && rest.length === 2))) {
      process.stderr.write(`usage: ${adminCommand.usage}\n`);
      return 2;
    }
    let config;
    try {
      config = loadMusicConfig(process.env);
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      process.stderr.write(`admin: ${err.message}\n`);
      return 2;
    }
    const prisma = createPrismaClient(config.databaseUrl, { poolSize: 1 });
    const users = new PrismaUserRepository(prisma);
    try {
      if (action === 'promote') {
        const handle = normaliseHandle(rest[0] ?? '');
        const user = await users.findByHandle(handle);
        if (!user) {
          process.stderr.write(`admin: no user with the handle "${handle}".\n`);
          return 1;
        }
        await users.setRole(user.id, 'admin');
        process.stdout.write(
          `${user.handle} is now an admin${user.role === 'admin' ? ' (already was)' : ''}.\n`,
        );
        return 0;
      }
      const password = await readPassword();
      const body = { handle: rest[0], email: rest[1], password };
      signup.assert(body, 'admin account');
      assertPasswordPolicy(
        password ?? '',
        normaliseHandle(body.handle ?? ''),
        normaliseEmail(body.email ?? ''),
      );
      const user = await users.create({
        handle: normaliseHandle(body.handle ?? ''),
        email: normaliseEmail(body.email ?? ''),
        passwordHash: await hashPassword(password ?? ''),
        displayName: normaliseHandle(body.handle ?? ''),
        role: 'admin',
      });
      process.stdout.write(`created admin ${user.handle} (${user.id}).\n`);
      return 0;
    } catch (err) {
      if (err instanceof AppError && err.status < 500) {
        const details = (err.errors ?? []).map((e) => `\n  ${e.path}: ${e.message}`).join('');
        process.stderr.write(`admin: ${err.message}${details}\n`);
        return 1;
      }
      throw err;
    } finally {
      await prisma.$disconnect();
    }
  },
};
