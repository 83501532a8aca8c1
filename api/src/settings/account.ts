import type { FastifyRequest } from 'fastify';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { getAddress } from 'ethers';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import { apiMessages as M, formatMessage, type Lang, type Profile, type ProfileUpdateBody } from '@app/contracts';
import { requestHost, type SessionUser, type UserRow } from '../auth';
import { uniqueViolation } from '../db/errors';
import type { Db } from '../db/client';
import { emailCodes, refreshTokens, sessions, users } from '../db/schema';
import { ApiError, badRequest } from '../http/errors';
import type { AuthInfo } from '../http/route';
import { rows } from '../db/rows';
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
    withdrawalsHeldUntil: heldUntil(u),
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

async function mailOnce(s: Services, req: FastifyRequest, to: string, lang: Lang, kind: MailKind, vars: Partial<MailVars> = {}, tx?: Pick<Db, 'insert'>) {
  await s.mailer.send(to, lang, kind, { ...mailContext(s, req, lang, '/cabinet/settings'), ...vars }, tx);
}

/** Takes one mail to `to` from its hourly allowance; refuses before anything is stored. */
async function takeMail(s: Services, to: string) {
  const sent = await s.counters.hit(`mail:${to}`, 3600);
  if (sent > SETTINGS_MAILS_PER_HOUR * s.config.rateLimit.multiplier) throw new ApiError(429, M.tooManyRequests, 'RATE_LIMITED');
}

/** The account as stored now: the session's copy may be a moment old, and a proof must see the latest. */
async function storedUser(s: Services, userId: string): Promise<UserRow> {
  const [row] = await s.db.select().from(users).where(eq(users.id, userId));
  if (!row) throw new ApiError(401, M.sessionExpired, 'SESSION_ENDED');
  return row;
}

/** The owner's proof of a change: the password, a code mailed to the proven address, or the linked wallet's signature. */
export type OwnerProof = {
  password?: string | undefined;
  code?: string | undefined;
  walletProof?: { message: string; signature: string } | undefined;
};

/** Whether the login e-mail changed inside the hold: no code proving the owner goes to such an address. */
const changedInsideHold = (s: Services, u: Pick<UserRow, 'emailChangedAt'>) =>
  Boolean(u.emailChangedAt && u.emailChangedAt.getTime() + s.config.withdrawalHoldSeconds * 1000 > Date.now());

/**
 * A fresh proof that the caller is the account's owner, not merely a holder of its session. The
 * password's tries are counted per account (as sign-in failures are), so a stolen session cannot
 * guess it from many addresses; a code must have been mailed to the account's current, proven
 * address (the HMAC binds it to that address); a wallet-only account signs with its linked wallet.
 */
async function proveOwner(s: Services, req: FastifyRequest, u: UserRow, proof: OwnerProof, passwordField = 'password') {
  if (proof.password) {
    const key = `owner-password:${u.id}`;
    const { loginMaxFailures, loginFailureWindowSeconds, multiplier } = s.config.rateLimit;
    if ((await s.counters.hit(key, loginFailureWindowSeconds)) > Math.max(1, Math.round(loginMaxFailures * multiplier))) {
      throw new ApiError(429, M.tooManyAttempts, 'TOO_MANY_ATTEMPTS');
    }
    if (!u.passwordHash || !(await s.hasher.verify(u.passwordHash, proof.password))) {
      throw badRequest(M.wrongPassword, 'WRONG_PASSWORD', { [passwordField]: M.wrongPassword });
    }
    await s.counters.reset(key);
    return;
  }
  if (proof.code) {
    const proven = u.email && u.emailConfirmedAt && !changedInsideHold(s, u);
    if (!proven || !(await s.codes.consume(u.id, 'owner', proof.code, u.email!))) throw badRequest(M.invalidCode, 'INVALID_CODE', { code: M.invalidCode });
    return;
  }
  if (proof.walletProof && u.walletAddress) {
    const signer = await s.siwe.verify({ ...proof.walletProof, address: u.walletAddress }, { host: requestHost(req) });
    if (signer !== u.walletAddress) throw badRequest(M.ownerWalletMismatch, 'OWNER_WALLET_MISMATCH', { walletProof: M.ownerWalletMismatch });
    return;
  }
  const walletOnly = !u.email && !u.passwordHash && u.walletAddress;
  if (walletOnly) throw badRequest(M.ownerWalletRequired, 'OWNER_PROOF_REQUIRED', { walletProof: M.ownerWalletRequired });
  throw badRequest(M.ownerProofRequired, 'OWNER_PROOF_REQUIRED', { [passwordField]: M.ownerProofRequired });
}

/** Payouts of the account wait until the hold ends; a new change never shortens a running hold. */
export const holdSet = (s: Services) => ({
  withdrawalsHeldUntil: sql`greatest(coalesce(${users.withdrawalsHeldUntil}, now()), now() + make_interval(secs => ${s.config.withdrawalHoldSeconds}))`,
});

/** When payouts may go again, if they are held now; the API shows it with the withdrawals. */
export const heldUntil = (u: Pick<UserRow, 'withdrawalsHeldUntil'>): string | null =>
  u.withdrawalsHeldUntil && u.withdrawalsHeldUntil.getTime() > Date.now() ? u.withdrawalsHeldUntil.toISOString() : null;

/**
 * What every change of a credential does after it is stored: the account's other sessions end
 * (a stolen one among them), and the address that was the login is told, with when payouts resume.
 */
async function afterCredentialChange(s: Services, req: FastifyRequest, auth: AuthInfo, changed: UserRow, notify: { to: string | null; kind: MailKind; vars?: Partial<MailVars> }) {
  await endOtherSessions(s, auth);
  s.sessions.forgetUser(changed.id);
  if (notify.to) {
    const lang = langOfUser(changed);
    await mailOnce(s, req, notify.to, lang, notify.kind, { sessions: 'others', heldUntil: heldUntil(changed) ?? undefined, ...notify.vars });
  }
}

/**
 * PUT /user/update: the fields, a new e-mail (pending until its code), and preferences. A new
 * e-mail needs the owner's proof first; it is stored as pending only together with the code mailed
 * to it, in one transaction, after the mail allowance was taken: a refusal stores nothing.
 */
export async function updateProfile(s: Services, req: FastifyRequest, user: SessionUser, body: ProfileUpdateBody & OwnerProof): Promise<SessionUser> {
  let phone = edit(body.phone);
  if (phone) {
    phone = normalPhone(phone);
    if (!phone) throw badRequest(M.invalidFields, 'VALIDATION', { phone: M.invalidPhone });
  }
  const email = body.email?.trim().toLowerCase();
  const stored = email ? await storedUser(s, user.id) : undefined;
  const newEmail = stored && email && email !== stored.email && email !== stored.pendingEmail ? email : undefined;
  if (newEmail) {
    await proveOwner(s, req, stored!, body);
    await takeMail(s, newEmail);
  }
  const changes = {
    name: edit(body.name),
    phone,
    telegram: edit(body.telegram),
    lang: body.lang,
    theme: body.theme,
    // Typing the current e-mail again withdraws a pending change.
    pendingEmail: newEmail ?? (email && email === stored?.email ? null : undefined),
  };
  const set = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  if (Object.keys(set).length === 0) return user;
  const u = await s.db.transaction(async (tx) => {
    const [row] = await tx
      .update(users)
      .set({ ...set, updatedAt: new Date() })
      .where(eq(users.id, user.id))
      .returning();
    if (newEmail) {
      const code = await s.codes.issue(user.id, 'email-change', newEmail, tx);
      await mailOnce(s, req, newEmail, langOfUser(row!), 'email-change', { code }, tx);
    } else if (set.pendingEmail === null) {
      // The withdrawn change's code stops working with it.
      await tx.update(emailCodes).set({ usedAt: sql`now()` }).where(and(eq(emailCodes.userId, user.id), eq(emailCodes.purpose, 'email-change'), isNull(emailCodes.usedAt)));
    }
    return row!;
  });
  s.sessions.forgetUser(user.id);
  if (newEmail) void s.mailer.poll();
  return u;
}

/**
 * The code mailed to the new address makes it the login. Proving an address re-confirms the
 * account as a confirmation does (issue 9's rule): the other sessions end, and a wallet linked
 * before this address was proved is unlinked, unless the account had no e-mail before and so its
 * wallet was its own proof of the owner. The old address is told, and payouts are held.
 */
export async function confirmEmail(s: Services, req: FastifyRequest, auth: AuthInfo, code: string): Promise<SessionUser> {
  const before = await storedUser(s, auth.user.id);
  const pending = before.pendingEmail;
  if (!pending) throw badRequest(M.noEmailChange, 'NO_EMAIL_CHANGE', { code: M.noEmailChange });
  if (!(await s.codes.consume(before.id, 'email-change', code, pending))) throw badRequest(M.invalidCode, 'INVALID_CODE', { code: M.invalidCode });
  try {
    const [u] = await s.db
      .update(users)
      .set({
        email: pending,
        pendingEmail: null,
        role: before.role ?? 'user',
        emailConfirmedAt: sql`now()`,
        emailChangedAt: sql`now()`,
        ...(before.email ? { walletAddress: null } : {}),
        ...holdSet(s),
        updatedAt: new Date(),
      })
      .where(and(eq(users.id, before.id), eq(users.pendingEmail, pending)))
      .returning();
    if (!u) throw badRequest(M.noEmailChange, 'NO_EMAIL_CHANGE', { code: M.noEmailChange });
    await afterCredentialChange(s, req, auth, u, { to: before.email, kind: 'email-changed', vars: { email: pending, ...(before.walletAddress && !u.walletAddress ? { wallet: getAddress(before.walletAddress) } : {}) } });
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

/** A new password, with the current one or a code to the proven address; the other sessions end and payouts are held. */
export async function changePassword(
  s: Services,
  req: FastifyRequest,
  auth: AuthInfo,
  body: { currentPassword?: string | undefined; code?: string | undefined; password: string },
) {
  const before = await storedUser(s, auth.user.id);
  await proveOwner(s, req, before, { password: body.currentPassword, code: body.code }, 'currentPassword');
  const passwordHash = await s.hasher.hash(body.password);
  const [u] = await s.db
    .update(users)
    .set({ passwordHash, ...holdSet(s), updatedAt: new Date() })
    .where(eq(users.id, auth.user.id))
    .returning();
  const lang = langOfUser(u!);
  await afterCredentialChange(s, req, auth, u!, { to: u!.email, kind: 'password-changed', vars: { link: mailContext(s, req, lang, '/password-recovery').link } });
}

/**
 * A code to the account's e-mail, the alternative to the password for a change of the e-mail,
 * password or wallet. Never to an address that is not proven, nor to one changed inside the hold:
 * whoever changed it would prove the next change with it.
 */
export async function mailOwnerCode(s: Services, req: FastifyRequest, user: SessionUser) {
  const u = await storedUser(s, user.id);
  if (!u.email || !u.emailConfirmedAt) throw badRequest(M.ownerProofRequired, 'NO_EMAIL');
  if (changedInsideHold(s, u)) {
    const msg = formatMessage(M.ownerCodeAddressTooNew, { hours: Math.round(s.config.withdrawalHoldSeconds / 3600) });
    throw badRequest(msg, 'EMAIL_CHANGED_RECENTLY', { code: msg });
  }
  await takeMail(s, u.email);
  await s.db.transaction(async (tx) => {
    const code = await s.codes.issue(u.id, 'owner', u.email!, tx);
    await mailOnce(s, req, u.email!, langOfUser(u), 'owner-code', { code }, tx);
  });
  void s.mailer.poll();
}

/** Whether the account holds money or rewards: then even a first wallet link needs the owner's proof. */
export async function holdsFunds(s: Services, userId: string): Promise<boolean> {
  const [row] = await rows<{ holds: boolean }>(
    s.db,
    sql`select exists (select 1 from ledger_accounts where kind = 'position' and user_id = ${userId} and balance <> 0)
        or exists (select 1 from referral_day_rewards where user_id = ${userId} and (status <> 'paid' or forfeited > 0))
        or exists (select 1 from referral_part_sums where user_id = ${userId})
        or exists (select 1 from withdrawals where user_id = ${userId} and status not in ('paid', 'returned')) as holds`,
  );
  return Boolean(row?.holds);
}

/**
 * Links, replaces or unlinks the payout wallet once the owner is proved: the old address hears of
 * it, the other sessions end, payouts are held. `expect` is the wallet the change starts from, so
 * two changes at once cannot both pass one proof.
 */
async function setWallet(s: Services, req: FastifyRequest, auth: AuthInfo, expect: string | null, wallet: string | null): Promise<SessionUser> {
  try {
    const [u] = await s.db
      .update(users)
      .set({ walletAddress: wallet, ...holdSet(s), updatedAt: new Date() })
      .where(and(eq(users.id, auth.user.id), expect ? eq(users.walletAddress, expect) : isNull(users.walletAddress)))
      .returning();
    if (!u) throw new ApiError(409, M.walletAlreadyLinked, 'WALLET_ALREADY_LINKED');
    await afterCredentialChange(s, req, auth, u, { to: u.email, kind: 'wallet-changed', vars: wallet ? { wallet: getAddress(wallet) } : {} });
    return u;
  } catch (err) {
    if (uniqueViolation(err) === 'users_wallet_key') throw new ApiError(409, M.walletTaken, 'WALLET_TAKEN', { metaMaskAddress: M.walletTaken });
    throw err;
  }
}

type WalletBody = { metaMaskAddress: string; message: string; signature: string } & OwnerProof;

/**
 * POST /connect-mm on an account that holds money or rewards: the first payout wallet is a
 * change of where money goes, so it takes the owner's proof, like a replacement (issue 21,
 * finding 1). Answers undefined for an account with nothing to pay out: the plain link applies.
 */
export async function linkFirstWallet(s: Services, req: FastifyRequest, auth: AuthInfo, wallet: string, proof: OwnerProof): Promise<SessionUser | undefined> {
  if (!(await holdsFunds(s, auth.user.id))) return undefined;
  await proveOwner(s, req, await storedUser(s, auth.user.id), proof);
  return setWallet(s, req, auth, null, wallet);
}

/** Replaces the linked wallet: the owner's proof, then the new wallet's own (EIP-4361). */
export async function replaceWallet(s: Services, req: FastifyRequest, auth: AuthInfo, body: WalletBody) {
  const before = await storedUser(s, auth.user.id);
  if (!before.walletAddress) throw badRequest(M.noWalletLinked, 'NO_WALLET');
  await proveOwner(s, req, before, body);
  const wallet = await s.siwe.verify({ message: body.message, signature: body.signature, address: body.metaMaskAddress }, { host: requestHost(req) });
  if (wallet === before.walletAddress) throw badRequest(M.sameWallet, 'SAME_WALLET', { metaMaskAddress: M.sameWallet });
  return setWallet(s, req, auth, before.walletAddress, wallet);
}

export async function unlinkWallet(s: Services, req: FastifyRequest, auth: AuthInfo, proof: OwnerProof) {
  const before = await storedUser(s, auth.user.id);
  if (!before.walletAddress) throw badRequest(M.noWalletLinked, 'NO_WALLET');
  // A wallet-only account would be locked out without its wallet.
  if (!before.email || !before.passwordHash) throw badRequest(M.forbidden, 'WALLET_ONLY_ACCOUNT');
  await proveOwner(s, req, before, proof);
  return setWallet(s, req, auth, before.walletAddress, null);
}
