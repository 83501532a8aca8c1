// Issue 26 ("an audit row deleted directly in the database makes `operator audit verify` fail"),
// end to end on PostgreSQL: two audited operator steps, the command line's `operator audit verify`
// passing; then someone with the database owner's rights turns the append-only trigger off and
// deletes the first of them with `pg`, and the same command fails, naming the missing entry.
// It runs before the payout takeover (files run in name order), while both replicas are up; the
// chain it leaves broken is this throwaway cluster's only.
import { expect, test } from '@playwright/test';
import { Client } from 'pg';
import { operatorCli, operatorPost } from '../support/operators';

test('issue 26: on PostgreSQL, an audit row deleted directly in the database makes `operator audit verify` fail', async ({ request }) => {
  // Two audited steps that change nothing in force: a far APY proposed by alice, withdrawn by her.
  const day = new Date(Date.now() + 400 * 86_400_000).toISOString().slice(0, 10);
  const proposed = await operatorPost(request, 'setting-changes', { kind: 'apy', pool: 'stable', apy: '0.0421', effectiveFrom: day });
  expect(proposed.status(), await proposed.text()).toBe(200);
  const { id } = (await proposed.json()) as { id: number };
  const withdrawn = await operatorPost(request, `setting-changes/${id}/reject`, { reason: 'audit chain test' });
  expect(withdrawn.status(), await withdrawn.text()).toBe(200);

  const intact = operatorCli('bob', 'audit', 'verify');
  expect(intact.out).toMatch(/^audit log: OK \(\d+ entries, chain intact\)$/m);
  expect(intact.status).toBe(0);

  const db = new Client({ connectionString: process.env.E2E_DATABASE_URL, application_name: 'e2e' });
  await db.connect();
  try {
    const found = await db.query<{ seq: string }>(`select seq::text as seq from operator_audit where target = $1 and action = 'settings.propose'`, [`setting-change:${id}`]);
    const seq = Number(found.rows[0]!.seq);
    // As the trigger is on, the delete is refused.
    await expect(db.query('delete from operator_audit where seq = $1', [seq])).rejects.toThrow('the operator audit log is append-only');
    await db.query('alter table operator_audit disable trigger operator_audit_no_change');
    await db.query('delete from operator_audit where seq = $1', [seq]);
    await db.query('alter table operator_audit enable trigger operator_audit_no_change');

    const broken = operatorCli('bob', 'audit', 'verify');
    expect(broken.out.trim()).toBe(`audit log: BROKEN at entry ${seq + 1}: entry ${seq} is missing`);
    expect(broken.status).toBe(1);
  } finally {
    await db.end();
  }
});
