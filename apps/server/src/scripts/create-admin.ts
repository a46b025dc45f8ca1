/**
 * Creates an internal staff user with every permission:
 *   npm run create-admin -- --username NAME [--first F --last L]
 * The password comes from ADMIN_PASSWORD or is asked for on the terminal.
 */
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { eq } from 'drizzle-orm';
import { loadConfig } from '../config';
import { createDb, DataDirLockedError, runMigrations } from '../db/create-db';
import { roles, users } from '../db/schema';
import { recordAudit, SYSTEM_ACTOR } from '../modules/audit/service';
import { hashPassword } from '../lib/password';
import { passwordProblem } from '../lib/password-policy';
import { PASSWORD_MIN } from '@paydesk/contracts';

function fail(message: string): never {
  console.error(`create-admin: ${message}`);
  process.exit(1);
}

let args;
try {
  args = parseArgs({
    options: {
      username: { type: 'string' },
      first: { type: 'string' },
      last: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  }).values;
} catch (err) {
  fail(`${(err as Error).message}\nUsage: npm run create-admin -- --username NAME [--first F --last L]`);
}
if (args.help) {
  console.log(
    'Usage: npm run create-admin -- --username NAME [--first F --last L]\nPassword: ADMIN_PASSWORD env var, or asked for on the terminal.',
  );
  process.exit(0);
}
const username = args.username?.trim();
if (!username) fail('--username is required. Usage: npm run create-admin -- --username NAME [--first F --last L]');

async function readPassword(): Promise<string> {
  if (process.env.ADMIN_PASSWORD !== undefined) return process.env.ADMIN_PASSWORD;
  if (!process.stdin.isTTY) fail('no password: set ADMIN_PASSWORD or run in a terminal to be asked for one.');
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    const first = await rl.question(`Password for ${username} (at least ${PASSWORD_MIN} characters): `);
    const again = await rl.question('Repeat the password: ');
    if (first !== again) fail('the passwords do not match.');
    return first;
  } finally {
    rl.close();
  }
}

const password = await readPassword();
const problem = passwordProblem(password, { username, firstName: args.first, lastName: args.last });
if (problem) fail(`the password is refused: ${problem}.`);

const config = loadConfig();
let dbh;
try {
  dbh = await createDb(
    config.databaseUrl ? { databaseUrl: config.databaseUrl, poolMax: 2 } : { dataDir: config.dataDir, poolMax: 2 },
  );
} catch (err) {
  if (err instanceof DataDirLockedError)
    fail(`${err.message}\nStop the server first, or run this against DATABASE_URL.`);
  throw err;
}

let exitCode = 0;
try {
  await runMigrations(dbh);
  const [existing] = await dbh.db.select({ id: users.id }).from(users).where(eq(users.username, username));
  if (existing) {
    console.error(`create-admin: a user named "${username}" already exists; nothing changed. Choose another username.`);
    exitCode = 1;
  } else {
    const passwordHash = await hashPassword(password);
    const outcome = await dbh.db.transaction(async (tx) => {
      // the preset Platform admin role: every permission, kept in step with contracts by runMigrations
      const [role] = await tx.select().from(roles).where(eq(roles.code, 'platform_admin'));
      const roleId = role!.id;
      const roleNote = `role "${role!.name}" (${role!.permissions.length} permissions)`;
      const inserted = await tx
        .insert(users)
        .values({
          username,
          passwordHash,
          firstName: args.first?.trim() || username,
          lastName: args.last?.trim() || '',
          merchantId: null,
          roleId,
        })
        .onConflictDoNothing()
        .returning({ id: users.id });
      if (inserted[0]) {
        await recordAudit(
          tx,
          { ...SYSTEM_ACTOR, username: 'create-admin' },
          {
            action: 'user.created',
            targetType: 'user',
            targetId: inserted[0].id,
            after: { username, role: role!.name },
          },
          new Date(),
        );
      }
      return { roleNote, userId: inserted[0]?.id };
    });
    if (!outcome.userId) {
      console.error(`create-admin: a user named "${username}" was created concurrently; nothing changed.`);
      exitCode = 1;
    } else {
      console.log(`create-admin: ${outcome.roleNote}`);
      console.log(
        `create-admin: created internal staff user "${username}" (id ${outcome.userId}, no merchant) in ${dbh.kind === 'pglite' ? `the embedded database in ${config.dataDir}` : 'PostgreSQL'}.`,
      );
    }
  }
} finally {
  await dbh.close();
}
process.exit(exitCode);
