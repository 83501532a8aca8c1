import type { FastifyRequest } from 'fastify';
import { brandForHost, brandTitle, type Lang } from '@app/contracts';
import { requestHost } from '../auth';
import type { Services } from '../services';

/**
 * What a mail needs: the brand's title and the site's address. The request only picks the brand;
 * the address is the brand's configured URL (else PUBLIC_URL), never the request's own Origin or
 * Host, so nobody can have the site mail a link to an address of their choosing.
 */
export function mailContext(s: Services, req: FastifyRequest, lang: Lang, path: string) {
  const host = requestHost(req);
  const base = (brandForHost(s.config.brands, host)?.url ?? s.config.publicUrl).replace(/\/$/, '');
  return { title: brandTitle(s.config.brands, host), link: `${base}${lang === 'ru' ? '/ru' : ''}${path}`, minutes: Math.round(s.config.lifetimes.emailCode / 60) };
}
