import type { FastifyRequest } from 'fastify';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { getAddress } from 'ethers';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { apiMessages as M, type Lang, type Profile, type ProfileUpdateBody } from '@app/contracts';
import { requestHost, type SessionUser } from '../auth';
import { uniqueViolation } from '../db/errors';
import { refreshTokens, sessions, users } from '../db/schema';
import { ApiError, badRequest } from '../http/errors';
import type { AuthInfo } from '../http/route';
import { mailContext, type MailKind, type MailVars } from '../mail';
import type { Services } from '../services';

const THEMES = new Set(['light', 'dark', 'system']);
const langOfUser = (u: SessionUser): Lang => (u.lang === 'ru' ? 'ru' : 'en');
/** Codes mailed by the settings per address per hour (before the configured multiplier). */
const SETTINGS_MAILS_PER_HOUR = 5;

export function toProfile(u: SessionUser): Profile {
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    phone: u.phone,
    telegram: u.telegram,
    avatar: u.avatar,
    walletAddress: u.walletAddress ? getAddress(u.walletAddress) : null,
    role: u.role,
    lang: langOfUser(u),
    theme: u.theme && THEMES.has(u.theme) ? (u.theme as Profile['theme']) : null,
    referralCode: u.referralCode,
    pendingEmail: u.pendingEmail,
  };
}

/** undefined leaves a field as it is; null or '' clears it. */
const edit = (v: string | null | undefined) => (v === undefined ? undefined : v === null || v === '' ? null : v);

/**
 * A phone number as the numbering plan knows it (libphonenumber's full metadata), in E.164;
 * the pattern in the contract only bounds the text.
 */
export function normalPhone(text: string): string | null {
  const parsed = parsePhoneNumberFromString(text);
  return parsed?.isValid() ? parsed.format('E.164') : null;
}

async function mailOnce(s: Services, req: FastifyRequest, to: string, lang: Lang, kind: MailKind, vars: Partial<MailVars> = {}) {
  await s.mailer.send(to, lang, kind, { ...mailContext(s, req, lang, '/cabinet/settings'), ...vars });
}

/** Mails a code for `purpose` to `to`, unless that address already got too many this hour. */
async function mailCode(s: Services, req: FastifyRequest, user: SessionUser, to: string, purpose: 'email-change' | 'wallet') {
  const sent = await s.counters.hit(`mail:${to}`, 3600);
  if (sent > SETTINGS_MAILS_PER_HOUR * s.config.rateLimit.multiplier) throw new ApiError(429, M.tooManyRequests, 'RATE_LIMITED');
  const code = await s.codes.issue(user.id, purpose);
  await mailOnce(s, req, to, langOfUser(user), purpose === 'wallet' ? 'wallet-code' : 'email-change', { code });
}

/** PUT /user/update: the fields, a new e-mail (pending until its code), and preferences. */
export async function updateProfile(s: Services, req: FastifyRequest, user: SessionUser, body: ProfileUpdateBody): Promise<SessionUser> {
  let phone = edit(body.phone);
  if (phone) {
    phone = normalPhone(phone);
    if (!phone) throw badRequest(M.invalidFields, 'VALIDATION', { phone: M.invalidPhone });
  }
  const email = body.email?.trim().toLowerCase();
  const newEmail = email && email !== user.email ? email : undefined;
  const changes = {
    name: edit(body.name),
    phone,
    telegram: edit(body.telegram),
    lang: body.lang,
    theme: body.theme,
    // Typing the current e-mail again withdraws a pending change.
    pendingEmail: newEmail ?? (email ? null : undefined),
  };
  const set = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  if (Object.keys(set).length === 0) return user;
  const [u] = await s.db
    .update(users)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(users.id, user.id))
    .returning();
  s.sessions.forgetUser(user.id);
  if (newEmail && newEmail !== user.pendingEmail) await mailCode(s, req, u!, newEmail, 'email-change');
  return u!;
}

/** The code mailed to the new address makes it the login. */
export async function confirmEmail(s: Services, user: SessionUser, code: string): Promise<SessionUser> {
  if (!user.pendingEmail) throw badRequest(M.noEmailChange, 'NO_EMAIL_CHANGE', { code: M.noEmailChange });
  if (!(await s.codes.consume(user.id, 'email-change', code))) throw badRequest(M.invalidCode, 'INVALID_CODE', { code: M.invalidCode });
  try {
    const [u] = await s.db
      .update(users)
      .set({ email: user.pendingEmail, pendingEmail: null, updatedAt: new Date() })
      .where(and(eq(users.id, user.id), eq(users.pendingEmail, user.pendingEmail)))
      .returning();
    if (!u) throw badRequest(M.noEmailChange, 'NO_EMAIL_CHANGE', { code: M.noEmailChange });
    s.sessions.forgetUser(user.id);
    return u;
  } catch (err) {
    if (uniqueViolation(err) === 'users_email_key') throw badRequest(M.emailTaken, 'EMAIL_TAKEN', { email: M.emailTaken });
    throw err;
  }
}

/** The live sessions of the user other than `keep`. */
async function otherSessionIds(s: Services, userId: string, keep: string): Promise<string[]> {
  const rows = await s.db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.userId, userId), ne(sessions.id, keep), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`)));
  return rows.map((r) => r.id);
}

export async function endOtherSessions(s: Services, auth: AuthInfo): Promise<number> {
  const ids = await otherSessionIds(s, auth.user.id, auth.sessionId);
  for (const id of ids) await s.sessions.revoke(id, 'signed out from the settings');
  return ids.length;
}

/** The user's live sessions, newest use first; "last used" is when it last got a refresh token. */
export async function listSessions(s: Services, auth: AuthInfo) {
  const lastUsed = sql<Date>`coalesce(max(${refreshTokens.createdAt}), ${sessions.createdAt})`.mapWith((v: string | Date) => new Date(v));
  const rows = await s.db
    .select({ id: sessions.id, ip: sessions.ip, userAgent: sessions.userAgent, createdAt: sessions.createdAt, lastUsedAt: lastUsed })
    .from(sessions)
    .leftJoin(refreshTokens, eq(refreshTokens.sessionId, sessions.id))
    .where(and(eq(sessions.userId, auth.user.id), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`)))
    .groupBy(sessions.id);
  return rows
    .map((r) => ({
      id: r.id,
      ip: r.ip,
      userAgent: r.userAgent,
      createdAt: r.createdAt.toISOString(),
      lastUsedAt: r.lastUsedAt.toISOString(),
      current: r.id === auth.sessionId,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current) || b.lastUsedAt.localeCompare(a.lastUsedAt));
}

export async function changePassword(
  s: Services,
  req: FastifyRequest,
  auth: AuthInfo,
  body: { currentPassword: string; password: string; signOutOthers?: boolean | undefined },
) {
  if (!(await passwordMatches(s, auth.user.id, body.currentPassword))) {
    throw badRequest(M.wrongPassword, 'WRONG_PASSWORD', { currentPassword: M.wrongPassword });
  }
  const passwordHash = await s.hasher.hash(body.password);
  await s.db.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, auth.user.id));
  s.sessions.forgetUser(auth.user.id);
  if (body.signOutOthers) await endOtherSessions(s, auth);
  if (auth.user.email) {
    const lang = langOfUser(auth.user);
    await mailOnce(s, req, auth.user.email, lang, 'password-changed', { link: mailContext(s, req, lang, '/password-recovery').link, sessions: body.signOutOthers ? 'others' : 'none' });
  }
}

/** A code to the account's e-mail, the proof a wallet change may use instead of the password. */
export async function mailWalletCode(s: Services, req: FastifyRequest, user: SessionUser) {
  if (!user.email) throw badRequest(M.ownerProofRequired, 'NO_EMAIL');
  await mailCode(s, req, user, user.email, 'wallet');
}

/** The hash is read when needed, never kept with the session. */
async function storedPasswordHash(s: Services, userId: string): Promise<string | null> {
  const [row] = await s.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId));
  return row?.passwordHash ?? null;
}

async function passwordMatches(s: Services, userId: string, password: string): Promise<boolean> {
  const hash = await storedPasswordHash(s, userId);
  return hash !== null && (await s.hasher.verify(hash, password));
}

/** The account owner's proof for a wallet change: the password, or the mailed code. */
async function checkOwner(s: Services, user: SessionUser, proof: { password?: string | undefined; code?: string | undefined }) {
  if (proof.password) {
    if (!(await passwordMatches(s, user.id, proof.password))) throw badRequest(M.wrongPassword, 'WRONG_PASSWORD', { password: M.wrongPassword });
    return;
  }
  if (proof.code) {
    if (!(await s.codes.consume(user.id, 'wallet', proof.code))) throw badRequest(M.invalidCode, 'INVALID_CODE', { code: M.invalidCode });
    return;
  }
  throw badRequest(M.ownerProofRequired, 'OWNER_PROOF_REQUIRED', { password: M.ownerProofRequired });
}

async function setWallet(s: Services, req: FastifyRequest, user: SessionUser, wallet: string | null): Promise<SessionUser> {
  try {
    const [u] = await s.db.update(users).set({ walletAddress: wallet, updatedAt: new Date() }).where(eq(users.id, user.id)).returning();
    s.sessions.forgetUser(user.id);
    if (u!.email) await mailOnce(s, req, u!.email, langOfUser(u!), 'wallet-changed', wallet ? { wallet: getAddress(wallet) } : {});
    return u!;
  } catch (err) {
    if (uniqueViolation(err) === 'users_wallet_key') throw new ApiError(409, M.walletTaken, 'WALLET_TAKEN', { metaMaskAddress: M.walletTaken });
    throw err;
  }
}

/** Replaces the linked wallet: the owner's proof, then the new wallet's own (EIP-4361). */
export async function replaceWallet(
  s: Services,
  req: FastifyRequest,
  user: SessionUser,
  body: { metaMaskAddress: string; message: string; signature: string; password?: string | undefined; code?: string | undefined },
) {
  if (!user.walletAddress) throw badRequest(M.noWalletLinked, 'NO_WALLET');
  await checkOwner(s, user, body);
  const wallet = await s.siwe.verify({ message: body.message, signature: body.signature, address: body.metaMaskAddress }, { host: requestHost(req) });
  if (wallet === user.walletAddress) throw badRequest(M.sameWallet, 'SAME_WALLET', { metaMaskAddress: M.sameWallet });
  return setWallet(s, req, user, wallet);
}

export async function unlinkWallet(s: Services, req: FastifyRequest, user: SessionUser, proof: { password?: string | undefined; code?: string | undefined }) {
  if (!user.walletAddress) throw badRequest(M.noWalletLinked, 'NO_WALLET');
  // A wallet-only account would be locked out without its wallet.
  if (!user.email || !(await storedPasswordHash(s, user.id))) throw badRequest(M.forbidden, 'WALLET_ONLY_ACCOUNT');
  await checkOwner(s, user, proof);
  return setWallet(s, req, user, null);
}
