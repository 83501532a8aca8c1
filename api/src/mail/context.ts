import type { FastifyRequest } from 'fastify';
import { brandOrDefault, type Lang } from '@app/contracts';
import { requestHost } from '../auth';
import type { Services } from '../services';
import { mailBrand } from './brand';

/**
 * What a mail needs: the brand's title, sender, colours and the site's address. The request only
 * picks the brand; the address is the brand's own (its `url`, else PUBLIC_URL on the brand's first
 * host), never the request's own Origin or Host, so nobody can have the site mail a link to an
 * address of their choosing.
 */
export function mailContext(s: Services, req: FastifyRequest, lang: Lang, path: string) {
  const brand = brandOrDefault(s.config.brands, requestHost(req));
  const look = mailBrand(s.config.brands, brand, s.config.publicUrl);
  return { title: brand.title, link: `${look.baseUrl}${lang === 'ru' ? '/ru' : ''}${path}`, minutes: Math.round(s.config.lifetimes.emailCode / 60), brand: look };
}
