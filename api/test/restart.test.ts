import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildServer } from '../src/app';
import { openDatabase } from '../src/db/client';
import { STRONG_PASSWORD, call, createTestDatabase, mailCatcher, register, testConfig, usingPostgres } from './helpers';

jest.setTimeout(180_000);

it('a restart keeps every account', async () => {
  const config = testConfig({ SMTP_URL: (await mailCatcher()).smtpUrl });
  let dir: string | undefined;
  let open: () => ReturnType<typeof openDatabase>;
  let drop = async () => undefined as void;
  if (usingPostgres) {
    const db = await createTestDatabase();
    await db.database.close();
    open = db.reopen;
    drop = db.drop;
  } else {
    // The embedded default: PGlite persisted in a data folder.
    dir = mkdtempSync(path.join(os.tmpdir(), 'api-restart-'));
    const dataDir = dir;
    open = () => openDatabase({ kind: 'pglite', dataDir });
  }
  try {
    const firstDb = await open();
    const first = await buildServer(config, { database: firstDb, logger: false });
    const { email, user } = await register(first);
    await first.close();
    await firstDb.close();

    const database = await open();
    const second = await buildServer(config, { database, logger: false });
    const login = await call(second, 'POST', '/api/v1/login', { body: { login: email, password: STRONG_PASSWORD } });
    expect(login.status).toBe(200);
    expect(login.body.user).toEqual(user);
    await second.close();
    await database.close();
  } finally {
    await drop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
});
