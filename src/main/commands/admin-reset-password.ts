/**
 * `admin reset-password <handle>`: sets a user's password for an operator (the way back when the
 * server sends no mail). The password comes from ADMIN_PASSWORD or the first line of stdin, never
 * the command line. Every session and Subsonic client key of the user ends.
 */
import type { MusicConfig } from '../../music/config.js';
import { createMusicConnections } from '../../music/repositories/connections.js';
import { resetPasswordAsOperator } from '../../music/operator-reset.js';
import { normaliseHandle } from '../../music/services/auth-service.js';

export async function resetPasswordCommand(
  config: MusicConfig,
  handleArg: string,
  readPassword: () => Promise<string | undefined>,
): Promise<number> {
  const handle = normaliseHandle(handleArg);
  const password = await readPassword();
  if (password === undefined || password.length < 10 || password.length > 256) {
    process.stderr.write(
      'admin: the new password must have 10 to 256 characters (ADMIN_PASSWORD or stdin).\n',
    );
    return 1;
  }
  const connections = createMusicConnections(config);
  try {
    const result = await resetPasswordAsOperator(config, connections, handle, password);
    if (!result) {
      process.stderr.write(`admin: no user with the handle "${handle}".\n`);
      return 1;
    }
    process.stdout.write(
      `password of ${handle} set; ${result.ended_sessions} session(s) ended, ${result.revoked_client_keys} client key(s) revoked${config.smtp ? ', owner told by mail' : ''}.\n`,
    );
    return 0;
  } finally {
    await connections.close();
  }
}
