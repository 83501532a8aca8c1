import { utcDay } from '../interest';
import { checkLedgerIncremental } from '../ledger';
import { accrueAndReward } from '../referral';
import { dailySnapshot } from '../solvency';
import type { Services } from '../services';

export { createJobRunner, type JobRunner } from './runner';

/** Yesterday, UTC: the last closed day, the newest one the interest job accrues by itself. */
export const lastClosedDay = (now = new Date()) => utcDay(new Date(now.getTime() - 86_400_000));

/**
 * Every background job of the API, on the one runner: deposits and mail in every replica (their
 * rows carry leases), interest, the chain watcher and payouts in one replica at a time.
 */
export function defineJobs(s: Services) {
  const { jobs, config } = s;
  jobs.define({ name: 'deposits', exclusive: false, intervalMs: config.deposits.jobIntervalMs, run: () => s.depositJob.tick() });
  jobs.define({ name: 'rate-counters', exclusive: false, intervalMs: config.money.jobsIntervalMs && 60_000, run: () => s.counters.prune() });
  jobs.define({ name: 'mail', exclusive: false, intervalMs: config.smtpUrl ? 5000 : 0, run: () => s.mailer.poll() });
  jobs.define({
    name: 'interest',
    exclusive: true,
    intervalMs: config.money.jobsIntervalMs && Math.max(config.money.jobsIntervalMs, 60_000),
    leaseSeconds: 120,
    run: async ({ renew }) => {
      const r = await accrueAndReward(s.db, s.prices, lastClosedDay(), renew);
      // The day's interest is owed on chain now: fund it; and the day's books can be proved.
      jobs.kick('treasury');
      jobs.kick('solvency');
      return r;
    },
  });
  jobs.define({
    name: 'watcher',
    exclusive: true,
    intervalMs: config.money.jobsIntervalMs,
    leaseSeconds: 60,
    // New deposits found: let the deposit job look at once.
    run: async () => {
      const r = await s.watcher.run();
      if (r.deposits) jobs.kick('deposits');
      return r;
    },
  });
  // The ledger's proofs over what was written since the last run, every few minutes: a failure is
  // logged loudly (and the operator's `ledger check` shows the details, `--full` over everything);
  // money is never moved to make it pass.
  jobs.define({
    name: 'ledger-check',
    exclusive: true,
    intervalMs: config.money.jobsIntervalMs && 300_000,
    run: async () => {
      const c = await checkLedgerIncremental(s.db);
      if (!c.ok) s.log.error({ unbalanced: c.unbalanced.length, negative: c.negative.length, drifted: c.drifted.length }, 'ledger check failed');
      return c.ok;
    },
  });
  jobs.define({
    name: 'payouts',
    exclusive: true,
    intervalMs: config.money.jobsIntervalMs,
    leaseSeconds: 60,
    run: async () => {
      const r = await s.payouts.run();
      // A payout the hot wallet cannot fund: the treasury may cover it now rather than at its next round.
      if (r.newlyWaiting) jobs.kick('treasury');
      return r;
    },
  });
  // The daily proof of solvency, once the last closed day's interest has run (a no-op when taken).
  jobs.define({
    name: 'solvency',
    exclusive: true,
    intervalMs: config.money.jobsIntervalMs && Math.max(config.money.jobsIntervalMs, 60_000),
    // One transaction builds the whole tree, so the lease covers the longest build rather than being renewed.
    leaseSeconds: 1800,
    run: () => dailySnapshot(s, lastClosedDay()),
  });
  // Deposit addresses swept to cold, approved float refills sent (signed by the signer); by default only on the operator's command.
  jobs.define({ name: 'custody', exclusive: true, intervalMs: config.money.sweepIntervalMs, leaseSeconds: 60, run: () => s.sweeps.run() });
  // Reserves ≥ liabilities at every paying address: funded from the treasury, or alerted.
  jobs.define({ name: 'treasury', exclusive: true, intervalMs: config.money.jobsIntervalMs && Math.max(config.money.jobsIntervalMs, 60_000), leaseSeconds: 60, run: () => s.treasury.run() });
}
