import type { FastifyRequest } from 'fastify';
import type { Lang } from '@app/contracts';

/** The caller's language: a `lang` field in the body or query, else Accept-Language, else English. */
export function langOf(req: FastifyRequest): Lang {
  const fromBody = (req.body as { lang?: unknown } | undefined)?.lang;
  const fromQuery = (req.query as { lang?: unknown } | undefined)?.lang;
  for (const v of [fromBody, fromQuery]) if (v === 'ru' || v === 'en') return v;
  const header = req.headers['accept-language'];
  if (typeof header === 'string') {
    // The first language named wins; q-values are rarely used by browsers for the first entry.
    const first = header.split(',')[0]?.trim().toLowerCase() ?? '';
    if (first.startsWith('ru')) return 'ru';
  }
  return 'en';
}
