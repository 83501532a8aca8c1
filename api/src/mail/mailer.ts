import { and, eq, inArray, lt, or, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Lang } from '@app/contracts';
import type { Db } from '../db/client';
import { outbox } from '../db/schema';
import { renderMail, type MailKind, type MailVars } from './templates';

const MAX_ATTEMPTS = 5;
/** What a body becomes once it has left (or never will): it may have held a code. */
export const REDACTED = '[redacted after sending]';

export type MailerOptions = {
  smtpUrl: string | null;
  from: string;
  log: FastifyBaseLogger;
  /** Sent, failed and unsent rows are deleted after this many seconds. */
  retentionSeconds: number;
  /** A row left in `sending` this long (the sender crashed) is sent again. */
  sendingLeaseSeconds: number;
};

/**
 * Mail goes into the outbox table first and a worker sends it over SMTP. So a slow SMTP server
 * never slows a request (nor reveals by timing whether one was sent), and with several replicas
 * each mail is sent once (row locks with SKIP LOCKED). A body may hold a code: it rests in the
 * table only until SMTP has taken it, then it is redacted, and old rows are purged.
 */
export function createMailer(db: Db, opts: MailerOptions) {
  const transport = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : null;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  const redacted = { text: REDACTED, html: REDACTED };

  async function purge() {
    await db
      .delete(outbox)
      .where(
        and(
          inArray(outbox.status, ['sent', 'failed', 'unsent']),
          lt(outbox.createdAt, sql`now() - make_interval(secs => ${opts.retentionSeconds})`),
        ),
      );
  }

  async function drain(): Promise<void> {
    if (!transport) return;
    for (;;) {
      const batch = await db.transaction(async (tx) => {
        const stale = sql`now() - make_interval(secs => ${opts.sendingLeaseSeconds})`;
        const rows = await tx
          .select()
          .from(outbox)
          // A row in `sending` whose claim is old was being sent by a process that died.
          .where(or(eq(outbox.status, 'pending'), and(eq(outbox.status, 'sending'), lt(outbox.claimedAt, stale))))
          .orderBy(outbox.id)
          .limit(10)
          .for('update', { skipLocked: true });
        if (rows.length) {
          await tx
            .update(outbox)
            .set({ status: 'sending', claimedAt: sql`now()`, attempts: sql`${outbox.attempts} + 1` })
            .where(inArray(outbox.id, rows.map((r) => r.id)));
        }
        return rows;
      });
      if (batch.length === 0) return purge();
      for (const m of batch) {
        try {
          await transport.sendMail({ from: m.fromAddress ?? opts.from, to: m.to, subject: m.subject, text: m.text, html: m.html, headers: { 'X-Mail-Kind': m.kind, 'Content-Language': m.lang } });
          await db.update(outbox).set({ status: 'sent', sentAt: sql`now()`, lastError: null, ...redacted }).where(eq(outbox.id, m.id));
        } catch (err) {
          // The SMTP error, never the body (it may hold a code).
          opts.log.warn({ mailId: m.id, error: String((err as Error).message).slice(0, 200) }, 'mail not sent');
          const failed = m.attempts + 1 >= MAX_ATTEMPTS;
          await db
            .update(outbox)
            .set({ status: failed ? 'failed' : 'pending', lastError: String((err as Error).message).slice(0, 500), ...(failed ? redacted : {}) })
            .where(eq(outbox.id, m.id));
          if (!failed) return; // try again on the next tick rather than hammering a failing server
        }
      }
    }
  }

  function kick(): Promise<void> {
    if (!transport) return Promise.resolve();
    running ??= drain()
      .catch((err) => opts.log.error({ err }, 'outbox worker failed'))
      .finally(() => {
        running = undefined;
      });
    return running;
  }

  return {
    /**
     * Queues a mail. Given the caller's database transaction (`tx`), the mail is queued with what it
     * tells of, or not at all; the next poll (after the commit) sends it. `eventKey` names the event
     * the mail tells of: a second mail for the same event is not queued.
     */
    async send(to: string, lang: Lang, kind: MailKind, vars: MailVars, tx?: Pick<Db, 'insert'>, eventKey?: string) {
      const r = renderMail(kind, lang, vars);
      const conn = tx ?? db;
      if (!transport) {
        // Development without SMTP_URL: nothing can carry the mail, so no body is kept either.
        opts.log.warn({ kind }, 'SMTP_URL is not set: mail not sent');
        await conn.insert(outbox).values({ to, subject: r.subject, lang, kind, status: 'unsent', eventKey, ...redacted }).onConflictDoNothing();
        return;
      }
      // An event already mailed (its job ran again) is not mailed twice.
      await conn.insert(outbox).values({ to, fromAddress: vars.brand?.from ?? null, subject: r.subject, text: r.text, html: r.html, lang, kind, status: 'pending', eventKey }).onConflictDoNothing();
      if (!tx) void kick();
    },
    /** One pass over pending mail (the job runner calls it): mail left by a crash or another replica, and old rows purged. */
    poll(): Promise<void> {
      return kick();
    },
    /** Polls for mail left by a crash or by another replica, and purges old rows. */
    start(intervalMs = 5000) {
      if (!transport || timer) return;
      timer = setInterval(() => void kick(), intervalMs);
      timer.unref();
      void kick();
    },
    /** Sends everything waiting now (tests, and before a shutdown). */
    async flush() {
      while (running) await running;
      await kick();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
export type Mailer = ReturnType<typeof createMailer>;
