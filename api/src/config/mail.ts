import * as z from 'zod/mini';
import { int, type ConfigDoc } from './fields';

/** Mail: where it is sent, from whom, how long the outbox keeps it. */
export const mailEnv = z.object({
  /** smtp://user:pass@host:587 or smtps://…; without it mail stays in the outbox table. Required in production. */
  SMTP_URL: z.optional(z.url({ protocol: /^smtps?$/ })),
  MAIL_FROM: z._default(z.string().check(z.minLength(3)), 'Invest Pools <no-reply@localhost>'),
  /** Sent and failed mails are deleted after this many days. */
  MAIL_RETENTION_DAYS: z._default(int(1, 3650), 14),
});
type MailEnv = z.output<typeof mailEnv>;

export const mailDocs: ConfigDoc[] = [
  {
    vars: ['SMTP_URL', 'MAIL_FROM'],
    meaning:
      '`smtp(s)://user:pass@host:port`. `npm start` points it at its MailDev mail catcher. Without it (development only) a mail is not sent and its body is not kept',
  },
  { vars: ['MAIL_RETENTION_DAYS'], meaning: 'sent, failed and unsent outbox rows are deleted after this' },
];

export type MailConfig = {
  smtpUrl: string | null;
  mailFrom: string;
  mail: { retentionSeconds: number; sendingLeaseSeconds: number };
};

export function mailProblems(e: MailEnv): string[] {
  return e.SMTP_URL ? [] : ['SMTP_URL is required in production'];
}

export function mailConfig(e: MailEnv): MailConfig {
  return {
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM,
    mail: { retentionSeconds: e.MAIL_RETENTION_DAYS * 86_400, sendingLeaseSeconds: 120 },
  };
}
