// Issue 23, goal 5 ("beyond one process"): the site on PostgreSQL with two API replicas behind the
// shell's proxy (replicas-setup.ts). A deposit, days of interest, and a withdrawal of the whole
// balance, whose payout is caught in flight (signed, broadcast and mined, not yet settled in the
// books) on the replica that holds the payout job's lease; that replica is killed (SIGKILL, the
// machine gone). The other one takes the job over once the lease has expired and settles the
// payout exactly once: what arrives on chain and what the ledger says are checked against the
// test's own arithmetic.
//
// How the payout is caught in flight, deterministically: the test holds a row lock on the ledger
// account that only the settlement of a payout posts to (withdrawals in flight), and lets the
// operator approve the withdrawal only then. The payout job signs, broadcasts, sees it mined, and
// blocks inside its settling transaction, holding the lease; PostgreSQL names the blocked
// connection's replica (application_name).
import { readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { Client } from 'pg';
import { earned } from '@app/web3/testing';
import { accrueUntil, addDays, apyFromFirstOpenDay, asOf, daysFrom, today } from '../support/calendar';
import { localOperator, operatorHeaders, operatorPost } from '../support/operators';
import { stackLog } from '../support/paths';
import { deposit, dismissNotices, openPool, sentHash } from '../support/pool';
import type { ApiReplica } from '../support/build-modules';

const ETH = 10n ** 18n;
/** Wei as ETH with every digit (the test's own arithmetic). */
const eth = (wei: bigint) => {
  const fraction = String(wei % ETH).padStart(18, '0').replace(/0+$/, '');
  return `${wei / ETH}${fraction ? `.${fraction}` : ''}`;
};

const replicas = (): ApiReplica[] => JSON.parse(process.env.E2E_REPLICAS ?? '[]') as ApiReplica[];

async function database(): Promise<Client> {
  const client = new Client({ connectionString: process.env.E2E_DATABASE_URL, application_name: 'e2e' });
  await client.connect();
  return client;
}

/** The API requests each replica logged (the stack's log, one line per request, prefixed by the replica's name). */
function requestsByReplica(from = 0): { lines: number; counts: Record<string, number> } {
  const lines = readFileSync(stackLog, 'utf8').split('\n');
  const counts: Record<string, number> = {};
  for (const line of lines.slice(from)) {
    const m = /^\[(api-\d+)\] .*"url":"\/api\/v1\/.*"msg":"incoming request"/.exec(line);
    if (m) counts[m[1]!] = (counts[m[1]!] ?? 0) + 1;
  }
  return { lines: lines.length, counts };
}

/** Accrues up to `until` on whichever replica answers; another replica's scheduled run may hold the interest lease for a moment. */
async function accrue(page: Page, until: string) {
  await expect(async () => accrueUntil(page.request, until)).toPass({ timeout: 30_000 });
}

test('goal 5: on two replicas, the replica holding the payout lease is killed mid-payout; the other takes the lease over once it expires and pays exactly once', async ({ page }) => {
  test.setTimeout(300_000);
  const [first, second] = replicas();
  expect([first?.name, second?.name]).toEqual(['api-1', 'api-2']);
  const db = await database();
  const lock = await database();
  try {
    // Deposit 1 ETH ($3,000 at the local price) into the coin pool, at 8 % from today.
    const day0 = today();
    const { wallet, panel, login } = await openPool(page, 'coin');
    const from = await apyFromFirstOpenDay(page.request, 'coin', '0.08');
    await deposit(panel, 'ETH', '3000');
    await sentHash(page);
    await expect(page.getByTestId('deposit-progress')).toContainText('Credited', { timeout: 30_000 });

    // Ten days of interest; a deposit made during the pool's first open day earns from the next.
    const until = addDays(await asOf(login), 9);
    await accrue(page, until);
    const days = daysFrom(from > day0 ? from : addDays(from, 1), until);
    expect(days).toBeGreaterThanOrEqual(9);
    const balance = ETH + earned(ETH, 8n, 100n, days);

    // The treasury covers the interest at the paying address now, rather than at its next round.
    await expect(async () => {
      const treasury = await operatorPost(page.request, 'treasury', {});
      expect(treasury.status(), await treasury.text()).toBe(200);
      const { items, short } = (await treasury.json()) as { items: unknown[]; short: number };
      expect([items.length > 0, short]).toEqual([true, 0]);
    }).toPass({ timeout: 30_000 });

    // Both replicas have served the browser's calls so far: the proxy spreads them.
    const before = requestsByReplica();
    expect(Object.keys(before.counts).sort()).toEqual(['api-1', 'api-2']);

    // Every withdrawal of ETH waits for an operator: the test decides when the payout job sees it.
    const rule = await operatorPost(page.request, 'payouts', { currency: 'ETH', approvalThreshold: '1' });
    expect(rule.status(), await rule.text()).toBe(200);

    // The whole balance, to the base unit: a computation that differs from the engine's either
    // fails here (overdrawn) or leaves a remainder (checked at the end).
    await dismissNotices(page);
    await page.getByRole('tab', { name: 'Withdraw' }).click();
    const withdraw = page.getByRole('tabpanel', { name: 'Withdraw' });
    await withdraw.getByLabel('Amount in ETH').fill(eth(balance));
    await withdraw.getByRole('button', { name: 'Request withdrawal' }).click();
    await expect(withdraw.getByTestId('withdraw-quote').getByTestId('quote-receive')).toHaveText(`${eth(balance)}\u00a0ETH`);
    await withdraw.getByTestId('withdraw-quote').getByRole('button', { name: 'Confirm withdrawal' }).click();
    const row = page.getByTestId('withdrawal-row').first();
    await expect(row).toBeVisible({ timeout: 10_000 });

    const waiting = await db.query<{ id: string; amount: string; status: string; user_id: string }>(
      `select id::text, amount::text, status, user_id::text from withdrawals where lower(to_address) = lower($1)`,
      [wallet.address],
    );
    expect(waiting.rows.map((w) => [w.amount, w.status])).toEqual([[balance.toString(), 'awaiting_approval']]);
    const id = waiting.rows[0]!.id;

    // Hold the account that only a payout's settlement posts to, then let the payout go.
    await lock.query('begin');
    await lock.query(`select id from ledger_accounts where key = 'withdrawals_in_flight:ETH' for update`);
    const lockPid = (await lock.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;
    const received = await wallet.chain.getBalance(wallet.address);
    const approved = await operatorPost(page.request, `withdrawals/${id}/approve`, {});
    expect(approved.status(), await approved.text()).toBe(200);

    // In flight: signed, broadcast and mined, and the replica settling it waits on the test's lock.
    let holder = '';
    await expect
      .poll(
        async () => {
          const blocked = await db.query<{ application_name: string }>(`select application_name from pg_stat_activity where $1 = any(pg_blocking_pids(pid))`, [lockPid]);
          holder = blocked.rows[0]?.application_name ?? '';
          return holder;
        },
        { timeout: 120_000 },
      )
      .toMatch(/^api-[12]$/);
    const sent = await db.query<{ status: string; tx_hash: string }>(`select status, tx_hash from withdrawals where id = $1`, [id]);
    expect(sent.rows[0]!.status).toBe('sending');
    const hash = sent.rows[0]!.tx_hash;
    expect(await wallet.chain.getTransactionReceipt(hash)).not.toBeNull();
    const lease = await db.query<{ owner: string; until: string; live: boolean }>(
      `select owner, lease_until::text as until, lease_until > now() as live from job_leases where job = 'payouts'`,
    );
    expect(lease.rows.map((r) => r.live)).toEqual([true]);

    // The replica holding the lease dies where it stands.
    const victim = replicas().find((r) => r.name === holder)!;
    const survivor = replicas().find((r) => r.name !== holder)!;
    process.kill(-victim.pid, 'SIGKILL');
    await expect.poll(() => fetch(`${victim.url}/api/health`).then(() => 'up', () => 'down'), { timeout: 15_000 }).toBe('down');
    await lock.query('rollback');

    // Its settlement died with it: nothing is booked, and the lease is still the dead replica's.
    await expect
      .poll(async () => (await db.query(`select 1 from pg_stat_activity where application_name = $1`, [victim.name])).rowCount, { timeout: 15_000 })
      .toBe(0);
    const meanwhile = await db.query<{ status: string; paid: string; owner: string }>(
      `select w.status, (select count(*)::text from ledger_transactions where reference = $2) as paid, l.owner
       from withdrawals w, job_leases l where w.id = $1 and l.job = 'payouts'`,
      [id, `withdrawal:${id}:paid`],
    );
    expect(meanwhile.rows[0]).toEqual({ status: 'sending', paid: '0', owner: lease.rows[0]!.owner });
    // From here on, the dead replica has logged its last line.
    const logAtKill = requestsByReplica().lines;

    // The site goes on through the proxy, on the survivor; the timeline reaches paid without a reload.
    await expect(row.getByTestId('withdrawal-status')).toHaveText('Paid', { timeout: 120_000 });

    // Paid once: the books and the chain.
    const paid = await db.query<{ status: string; after_lease: boolean; tx_hash: string; owner: string }>(
      `select w.status, w.paid_at >= $2::timestamptz as after_lease, w.tx_hash, l.owner
       from withdrawals w, job_leases l where w.id = $1 and l.job = 'payouts'`,
      [id, lease.rows[0]!.until],
    );
    // Settled by the other replica, and only once the dead one's lease had expired.
    expect(paid.rows[0]).toEqual({ status: 'paid', after_lease: true, tx_hash: hash, owner: expect.not.stringMatching(`^${lease.rows[0]!.owner}$`) });
    const books = await db.query<{ reference: string }>(
      `select reference from ledger_transactions where kind = 'withdrawal_paid' and detail->>'withdrawal' = $1`,
      [id],
    );
    expect(books.rows.map((r) => r.reference)).toEqual([`withdrawal:${id}:paid`]);
    const position = await db.query<{ balance: string }>(`select balance::text from ledger_accounts where key = $1`, [`position:coin:ETH:${waiting.rows[0]!.user_id}`]);
    expect(position.rows.map((r) => BigInt(r.balance))).toEqual([0n]);
    const tx = await wallet.chain.getTransaction(hash);
    expect([tx?.to?.toLowerCase(), tx?.value]).toEqual([wallet.address.toLowerCase(), balance]);
    expect((await wallet.chain.getBalance(wallet.address)) - received).toBe(balance);

    // The whole ledger still proves itself, asked through the shell (whichever replica is alive).
    const check = await page.request.get('/operator-api/ledger/check?full=yes', { headers: operatorHeaders(localOperator(), false) });
    expect(check.status(), await check.text()).toBe(200);
    expect(((await check.json()) as { ok: boolean }).ok).toBe(true);

    // After the kill, every request the browser made was answered by the survivor.
    const after = requestsByReplica(logAtKill);
    expect(Object.keys(after.counts)).toEqual([survivor.name]);
  } finally {
    await lock.end().catch(() => undefined);
    await db.end();
  }
});
