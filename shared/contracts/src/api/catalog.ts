import * as z from 'zod';

/** GET /system/regexp: the validation patterns as regular-expression sources. */
export const systemRegexpResponseSchema = z
  .object({ regExp: z.record(z.string(), z.string()) })
  .meta({ id: 'SystemRegexp' });
export type SystemRegexpResponse = z.infer<typeof systemRegexpResponseSchema>;

export const currencySchema = z
  .object({
    code: z.string(),
    name: z.string(),
    decimals: z.number().int(),
    native: z.boolean(),
    /** Token contract per chain id; absent for a chain where the currency does not exist. */
    addresses: z.record(z.string(), z.string()),
  })
  .meta({ id: 'Currency' });
export type Currency = z.infer<typeof currencySchema>;

export const currenciesResponseSchema = z.object({ currencies: z.array(currencySchema) }).meta({ id: 'Currencies' });
export type CurrenciesResponse = z.infer<typeof currenciesResponseSchema>;

export const faqItemSchema = z.object({ id: z.number().int(), question: z.string(), answer: z.string() });
export const faqResponseSchema = z.object({ items: z.array(faqItemSchema) }).meta({ id: 'Faq' });
export type FaqResponse = z.infer<typeof faqResponseSchema>;

export const healthResponseSchema = z
  .object({ status: z.enum(['ok', 'degraded']), database: z.enum(['up', 'down']), uptimeSeconds: z.number() })
  .meta({ id: 'Health' });
export type HealthResponse = z.infer<typeof healthResponseSchema>;

export const outboxMailSchema = z.object({
  id: z.number().int(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  html: z.string(),
  lang: z.string(),
  kind: z.string(),
  /** The code the mail carries, for browser tests. */
  code: z.string().nullable(),
  status: z.string(),
  createdAt: z.string(),
});
export const outboxQuerySchema = z.object({ to: z.string().max(254).optional() });
export const outboxResponseSchema = z.object({ items: z.array(outboxMailSchema) }).meta({ id: 'DevOutbox' });
export type OutboxResponse = z.infer<typeof outboxResponseSchema>;
