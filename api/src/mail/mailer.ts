import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import type { Lang } from '@app/contracts';
import type { Db } from '../db/client';
import { outbox } from '../db/schema';
import { renderMail, type MailKind, type MailVars } from './templates';

const MAX_ATTEMPTS = 5;

/**
 * Mail goes into the outbox table first, in the request's transaction of work, and a worker sends
 * it. So a slow SMTP server never slows a request (nor reveals by timing whether one was sent),
 * and with several replicas each mail is sent once (row locks with SKIP LOCKED).
 */
export function createMailer(db: Db, opts: { smtpUrl: string | null; from: string; log: FastifyBaseLogger }) {
  const transport = opts.smtpUrl ? nodemailer.createTransport(opts.smtpUrl) : null;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  async function drain(): Promise<void> {
    if (!transport) return;
    for (;;) {
      const batch = await db.transaction(async (tx) => {
        const rows = await tx
          .select()
          .from(outbox)
          .where(and(eq(outbox.status, 'pending')))
          .orderBy(outbox.id)
          .limit(10)
          .for('update', { skipLocked: true });
        if (rows.length) {
          await tx
            .update(outbox)
            .set({ status: 'sending', attempts: sql`${outbox.attempts} + 1` })
            .where(inArray(outbox.id, rows.map((r) => r.id)));
        }
        return rows;
      });
      if (batch.length === 0) return;
      for (const m of batch) {
        try {
          await transport.sendMail({ from: opts.from, to: m.to, subject: m.subject, text: m.text, html: m.html });
          await db.update(outbox).set({ status: 'sent', sentAt: sql`now()`, lastError: null }).where(eq(outbox.id, m.id));
        } catch (err) {
          opts.log.warn({ err, mailId: m.id }, 'mail not sent');
          const failed = m.attempts + 1 >= MAX_ATTEMPTS;
          await db
            .update(outbox)
            .set({ status: failed ? 'failed' : 'pending', lastError: String((err as Error).message).slice(0, 500) })
            .where(eq(outbox.id, m.id));
          if (!failed) return; // try again on the next tick rather than hammering a failing server
        }
      }
    }
  }

  function kick() {
    if (!transport || running) return;
    running = drain()
      .catch((err) => opts.log.error({ err }, 'outbox worker failed'))
      .finally(() => {
        running = undefined;
      });
  }

  return {
    async send(to: string, lang: Lang, kind: MailKind, vars: MailVars) {
      const r = renderMail(kind, lang, vars);
      await db.insert(outbox).values({
        to,
        subject: r.subject,
        text: r.text,
        html: r.html,
        lang,
        kind,
        code: vars.code ?? null,
        status: transport ? 'pending' : 'local',
      });
      kick();
    },
    /** One pass over pending mail (the job runner calls it): mail left by a crash or another replica. */
    poll(): Promise<void> {
      kick();
      return running ?? Promise.resolve();
    },
    /** Polls for mail left by a crash or by another replica. */
    start(intervalMs = 5000) {
      if (!transport || timer) return;
      timer = setInterval(kick, intervalMs);
      timer.unref();
      kick();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
    async list(to?: string, limit = 50) {
      return db
        .select()
        .from(outbox)
        .where(to ? eq(outbox.to, to.trim().toLowerCase()) : undefined)
        .orderBy(desc(outbox.id))
        .limit(limit);
    },
  };
}
export type Mailer = ReturnType<typeof createMailer>;
