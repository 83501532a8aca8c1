// Users owed in two currencies, written straight into the ledger's accounts (USDT in the stable
// pool, ETH in the coin pool, credit balances: owed), and a chain that answers at once with no
// declared address: what bench:solvency and the block tests snapshot, where the chain is not the point.
import { sql } from 'drizzle-orm';
import type { ChainReader } from '../src/chain';
import type { Db } from '../src/db/client';

export const instantChain = {
  chainId: async () => 1,
  blockNumber: async () => 100,
  call: async <T>(method: string) => (method === 'eth_getBlockByNumber' ? { hash: `0x${'ab'.repeat(32)}` } : '0x0') as T,
} as unknown as ChainReader;

/** `n` users whose e-mails start with `prefix`, each with a random position in USDT and in ETH. */
export async function seedPositions(db: Db, n: number, prefix: string): Promise<void> {
  await db.execute(sql`insert into users (id, email, referral_code, role)
    select gen_random_uuid(), ${prefix} || i || '@example.com', ${prefix} || i, 'user' from generate_series(1, ${n}) i`);
  await db.execute(sql`insert into ledger_accounts (key, kind, currency, user_id, pool, balance)
    select 'position:stable:USDT:' || id, 'position', 'USDT', id, 'stable', -(1 + (random() * 1e12)::bigint) from users where email like ${`${prefix}%`}
    union all
    select 'position:coin:ETH:' || id, 'position', 'ETH', id, 'coin', -(1 + (random() * 1e18)::numeric(40,0)) from users where email like ${`${prefix}%`}`);
}
