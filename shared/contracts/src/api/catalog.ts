import * as z from 'zod/mini';

/** GET /system/regexp: the validation patterns as regular-expression sources. */
export const systemRegexpResponseSchema = z
  .object({ regExp: z.record(z.string(), z.string()) })
  .register(z.globalRegistry, { id: 'SystemRegexp' });
export type SystemRegexpResponse = z.infer<typeof systemRegexpResponseSchema>;

export const currencySchema = z
  .object({
    code: z.string(),
    name: z.string(),
    decimals: z.int(),
    native: z.boolean(),
    /** Token contract per chain id; absent for a chain where the currency does not exist. */
    addresses: z.record(z.string(), z.string()),
  })
  .register(z.globalRegistry, { id: 'Currency' });
export type Currency = z.infer<typeof currencySchema>;

export const currenciesResponseSchema = z.object({ currencies: z.array(currencySchema) }).register(z.globalRegistry, { id: 'Currencies' });
export type CurrenciesResponse = z.infer<typeof currenciesResponseSchema>;

export const faqItemSchema = z.object({ id: z.int(), question: z.string(), answer: z.string() });
export const faqResponseSchema = z.object({ items: z.array(faqItemSchema) }).register(z.globalRegistry, { id: 'Faq' });
export type FaqResponse = z.infer<typeof faqResponseSchema>;

export const healthResponseSchema = z
  .object({ status: z.enum(['ok', 'degraded']), database: z.enum(['up', 'down']), uptimeSeconds: z.number() })
  .register(z.globalRegistry, { id: 'Health' });
export type HealthResponse = z.infer<typeof healthResponseSchema>;
