import type { FastifyReply, FastifyRequest } from 'fastify';
import { getAddress } from 'ethers';
import { brandForHost, brandTitle, sessionMarkerCookie, type AuthResponse, type AuthUser, type Lang } from '@app/contracts';
import type { IssuedTokens, SessionUser } from '../auth/sessions';
import { requestHost } from '../auth/siwe';
import type { Services } from '../services';

export const REFRESH_COOKIE = 'refresh_token';
/** Both /api/v1/refresh and /api/v1/logout must receive it; nothing outside /api needs it. */
export const REFRESH_COOKIE_PATH = '/api';

const THEMES = ['light', 'dark', 'system'] as const;

export function toAuthUser(u: SessionUser): AuthUser {
  const wallet = u.walletAddress ? getAddress(u.walletAddress) : null;
  // The theme is set only by saving the preferences (which saves the language with it); until then
  // the language is merely the one the account was made in, not a choice to impose elsewhere.
  const theme = THEMES.find((t) => t === u.theme);
  const preferences = theme ? { lang: u.lang === 'ru' ? ('ru' as const) : ('en' as const), theme } : null;
  return { id: u.id, name: u.name, login: u.email ?? wallet ?? '', role: u.role, metaMaskAddress: wallet, avatar: u.avatar, preferences };
}

export function setRefreshCookie(s: Services, reply: FastifyReply, tokens: IssuedTokens) {
  reply.setCookie(REFRESH_COOKIE, tokens.refreshToken, {
    httpOnly: true,
    sameSite: 'strict',
    secure: s.config.env === 'production',
    path: REFRESH_COOKIE_PATH,
    maxAge: Math.max(0, Math.floor((tokens.expiresAt.getTime() - Date.now()) / 1000)),
  });
  // Readable by the page, at every path: no secret, only "a session may exist".
  reply.setCookie(sessionMarkerCookie, '1', {
    httpOnly: false,
    sameSite: 'strict',
    secure: s.config.env === 'production',
    path: '/',
    maxAge: Math.max(0, Math.floor((tokens.expiresAt.getTime() - Date.now()) / 1000)),
  });
}

export function clearRefreshCookie(s: Services, reply: FastifyReply) {
  reply.clearCookie(REFRESH_COOKIE, {
    httpOnly: true,
    sameSite: 'strict',
    secure: s.config.env === 'production',
    path: REFRESH_COOKIE_PATH,
  });
  reply.clearCookie(sessionMarkerCookie, { sameSite: 'strict', secure: s.config.env === 'production', path: '/' });
}

/** Starts a session and answers like every sign-in call: user, tokens, and the refresh cookie. */
export async function signIn(s: Services, req: FastifyRequest, reply: FastifyReply, user: SessionUser): Promise<AuthResponse> {
  const tokens = await s.sessions.start(user.id, { ip: req.ip, userAgent: req.headers['user-agent'] });
  return answerWithTokens(s, reply, user, tokens);
}

export function answerWithTokens(s: Services, reply: FastifyReply, user: SessionUser, tokens: IssuedTokens): AuthResponse {
  setRefreshCookie(s, reply, tokens);
  reply.header('cache-control', 'no-store');
  return { user: toAuthUser(user), token: tokens.token, refreshToken: tokens.refreshToken };
}

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

/**
 * Runs `work` and answers no sooner than the configured floor, so that whether an account
 * exists cannot be told by how long the answer took.
 */
export async function uniformTime<T>(s: Services, work: () => Promise<T>): Promise<T> {
  const until = Date.now() + s.config.uniformResponseMs;
  const settle = async () => {
    const left = until - Date.now();
    if (left > 0) await new Promise((r) => setTimeout(r, left));
  };
  try {
    const result = await work();
    await settle();
    return result;
  } catch (err) {
    await settle();
    throw err;
  }
}
