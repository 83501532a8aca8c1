// `npm run operator:enrol -- <name> <email>`: makes a named operator, on the server, with the
// database's own access (no API call can create an operator). The password comes from
// OPERATOR_PASSWORD or the prompt; the TOTP secret (as an otpauth:// link for the authenticator
// app) and the command line's key are printed once and kept nowhere else in clear.
// On the local PGlite database, stop the API first (one process owns its files).
import { createInterface } from 'node:readline/promises';
import { authenticator } from 'otplib';
import { createPasswordHasher } from './auth';
import { configOrExit } from './config';
import { openDatabase } from './db/client';
import { enrolOperator } from './operator';

async function main() {
  const [name, email] = process.argv.slice(2);
  if (!name || !email) {
    console.error('usage: npm run operator:enrol -- <name> <email>   (password: OPERATOR_PASSWORD or the prompt)');
    process.exit(2);
  }
  let password = process.env.OPERATOR_PASSWORD;
  if (!password) {
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    password = (await rl.question('password (14+ characters, upper- and lower-case, a digit, a symbol): ')).trim();
    rl.close();
  }
  const config = configOrExit(process.env);
  const database = await openDatabase(config.database);
  try {
    const e = await enrolOperator(database.db, createPasswordHasher(config.argon2), { name, email, password });
    console.log(`operator ${e.name} enrolled.`);
    console.log(`authenticator app: ${authenticator.keyuri(e.name, 'operator console', e.totpSecret)}`);
    console.log(`command-line credential (put it in the file OPERATOR_KEY_FILE names): ${e.name}.${e.key}`);
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exitCode = 2;
  } finally {
    await database.close();
  }
}

if (require.main === module) void main();
