import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rows } from '../db/rows';

export type JobContext = {
  /** Extends this replica's lease; answers false when another replica has taken the job meanwhile. */
  renew(): Promise<boolean>;
};

export type JobDefinition = {
  name: string;
  intervalMs: number;
  /**
   * exclusive: one replica at a time holds the job's lease (`job_leases`); the watcher, interest and
   * payouts. Otherwise every replica runs it and the job's own row leases share the work (deposits).
   */
  exclusive: boolean;
  leaseSeconds?: number;
  run(ctx: JobContext): Promise<unknown>;
};

/**
 * The one job runner: a timer per job in each replica, and for exclusive jobs a lease row in the
 * database that only one replica holds at a time (taken when free or expired, renewed while
 * working, released after). A replica that dies leaves its lease to expire; another takes over.
 * Every job is written to be safe to run twice and after a crash, so a lease lost mid-run costs
 * time, never money.
 */
export function createJobRunner(db: Db, log: FastifyBaseLogger) {
  const owner = randomUUID();
  const jobs = new Map<string, JobDefinition>();
  const timers = new Map<string, NodeJS.Timeout>();
  const running = new Map<string, Promise<unknown>>();
  let started = false;

  async function acquire(job: JobDefinition): Promise<boolean> {
    const secs = job.leaseSeconds ?? 60;
    const got = await rows<{ owner: string }>(
      db,
      sql`insert into job_leases (job, owner, lease_until) values (${job.name}, ${owner}, now() + make_interval(secs => ${secs}))
          on conflict (job) do update set owner = excluded.owner, lease_until = excluded.lease_until
          where job_leases.lease_until < now() or job_leases.owner = excluded.owner
          returning owner`,
    );
    return got.length > 0;
  }

  // Released into the past, not to now(): a clock of coarse resolution could otherwise leave the
  // lease looking held to a replica that asks within the same tick.
  async function release(job: JobDefinition, error: string | null) {
    await db.execute(
      sql`update job_leases set lease_until = now() - interval '1 second', last_run_at = now(), last_error = ${error} where job = ${job.name} and owner = ${owner}`,
    );
  }

  /** Runs a job once now (if this replica gets its lease); overlapping calls share one run. */
  function runNow(name: string, work?: JobDefinition['run']): Promise<unknown> {
    const job = jobs.get(name);
    if (!job) throw new Error(`no job ${name}`);
    const current = running.get(name);
    if (current && !work) return current;
    if (current) return current.catch(() => undefined).then(() => runNow(name, work));
    const p = (async () => {
      if (job.exclusive && !(await acquire(job))) return { skipped: 'another replica holds the lease' };
      let error: string | null = null;
      // The lease is renewed while the job works, a third of it at a time: one long statement (a
      // day's accrual at scale) never outlasts it, and a replica that dies stops renewing it.
      // A renewal still in flight when the work ends is awaited before the release: on a pool of
      // connections it could otherwise commit after the release and hold the lease a while longer.
      let renewing: Promise<unknown> = Promise.resolve();
      const heartbeat = job.exclusive
        ? setInterval(() => {
            renewing = acquire(job).catch(() => undefined);
          }, ((job.leaseSeconds ?? 60) * 1000) / 3)
        : null;
      heartbeat?.unref?.();
      try {
        return await (work ?? job.run)({ renew: () => (job.exclusive ? acquire(job) : Promise.resolve(true)) });
      } catch (err) {
        error = (err as Error).message.slice(0, 500);
        throw err;
      } finally {
        if (heartbeat) clearInterval(heartbeat);
        await renewing;
        if (job.exclusive) await release(job, error).catch(() => undefined);
      }
    })().finally(() => running.delete(name));
    running.set(name, p);
    return p;
  }

  function schedule(job: JobDefinition, delay: number) {
    if (!started || !job.intervalMs) return;
    const timer = setTimeout(() => {
      timers.delete(job.name);
      runNow(job.name)
        .catch((err) => log.warn({ job: job.name, error: (err as Error).message }, 'job failed; it runs again at its next interval'))
        .finally(() => schedule(job, job.intervalMs));
    }, delay);
    timer.unref?.();
    timers.set(job.name, timer);
  }

  return {
    owner,
    define(job: JobDefinition) {
      jobs.set(job.name, job);
    },
    runNow,
    /** Runs a scheduled job soon rather than at its next interval (no-op when it is not scheduled here). */
    kick(name: string) {
      const job = jobs.get(name);
      if (!started || !job?.intervalMs) return;
      const t = timers.get(name);
      if (!t) return; // running now: it is scheduled again when done
      clearTimeout(t);
      timers.delete(name);
      schedule(job, 0);
    },
    start() {
      if (started) return;
      started = true;
      for (const job of jobs.values()) schedule(job, 0);
    },
    async stop() {
      started = false;
      for (const t of timers.values()) clearTimeout(t);
      timers.clear();
      await Promise.allSettled([...running.values()]);
    },
  };
}
export type JobRunner = ReturnType<typeof createJobRunner>;
