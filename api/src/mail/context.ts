import type { FastifyRequest } from 'fastify';
import { brandForHost, brandTitle, type Lang } from '@app/contracts';
import { requestHost } from '../auth';
import type { Services } from '../services';

/** What a mail needs from the request: the brand's title and the site's address. */
export function mailContext(s: Services, req: FastifyRequest, lang: Lang, path: string) {
  const host = requestHost(req);
  const known = brandForHost(s.config.brands, host);
  const base = known ? `${req.protocol}://${host}` : s.config.publicUrl;
  return { title: brandTitle(s.config.brands, host), link: `${base}${lang === 'ru' ? '/ru' : ''}${path}`, minutes: Math.round(s.config.lifetimes.emailCode / 60) };
}
