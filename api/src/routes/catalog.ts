import type { FastifyInstance } from 'fastify';
import { asc, eq } from 'drizzle-orm';
import { apiRoutes } from '@app/contracts';
import { currencies, currencyAddresses, faq, systemSettings } from '../db/schema';
import { langOf } from '../http/lang';
import { addRoute } from '../http/route';
import type { Services } from '../services';

export function catalogRoutes(app: FastifyInstance, s: Services) {
  addRoute(app, apiRoutes.systemRegexp, async () => {
    const [row] = await s.db.select().from(systemSettings).where(eq(systemSettings.key, 'regExp'));
    return { regExp: (row?.value ?? {}) as Record<string, string> };
  });

  addRoute(app, apiRoutes.currencies, async () => {
    const [rows, addresses] = await Promise.all([
      s.db.select().from(currencies).orderBy(asc(currencies.sort)),
      s.db.select().from(currencyAddresses),
    ]);
    return {
      currencies: rows.map((c) => ({
        code: c.code,
        name: c.name,
        decimals: c.decimals,
        native: c.native,
        addresses: Object.fromEntries(addresses.filter((a) => a.currency === c.code).map((a) => [String(a.chainId), a.address])),
      })),
    };
  });

  addRoute(app, apiRoutes.faq, async ({ req }) => {
    const rows = await s.db.select().from(faq).where(eq(faq.lang, langOf(req))).orderBy(asc(faq.sort));
    return { items: rows.map((r) => ({ id: r.id, question: r.question, answer: r.answer })) };
  });
}
