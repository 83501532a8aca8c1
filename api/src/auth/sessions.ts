import { randomUUID } from 'node:crypto';
import { and, eq, getTableColumns, gt, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { refreshTokens, sessions, users } from '../db/schema';
import { randomToken, sha256, type AccessTokens } from './tokens';

export type UserRow = typeof users.$inferSelect;
/**
 * The user as an authenticated call sees it: no password hash, so the session cache holds no
 * secret. The avatar column is only the image's URL (the image lives in its own table), so the
 * cache stays small.
 */
export type SessionUser = Omit<UserRow, 'passwordHash'>;

const { passwordHash, ...sessionUserSelection } = getTableColumns(users);
void passwordHash;

/** A rough size of a cached entry in bytes (UTF-16 strings, plus the map's own overhead). */
const entryBytes = (sessionId: string, u: SessionUser) =>
  200 + 2 * (sessionId.length + Object.values(u).reduce<number>((n, v) => n + (typeof v === 'string' ? v.length : 8), 0));
export type IssuedTokens = { token: string; refreshToken: string; sessionId: string; expiresAt: Date };

/**
 * Sessions are families of refresh tokens. Each /refresh spends one token and issues the next;
 * spending a token twice means it leaked, so the whole family is revoked.
 */
export function createSessions(db: Db, access: AccessTokens, refreshLifetimeSeconds: number, cacheMs = 0, cacheMaxBytes = 4 * 1024 * 1024) {
  /**
   * Live sessions seen in the last `cacheMs`, so an authenticated call costs no query. Every
   * change made here drops the entries it affects at once; another replica notices within
   * `cacheMs` at most (the bound on how long a revoked session may still be served elsewhere).
   */
  const cache = new Map<string, { user: SessionUser; until: number; bytes: number }>();
  let cacheBytes = 0;
  const drop = (sid: string) => {
    const e = cache.get(sid);
    if (!e) return;
    cacheBytes -= e.bytes;
    cache.delete(sid);
  };
  const forget = (match: (sessionId: string, user: SessionUser) => boolean) => {
    for (const [sid, e] of cache) if (match(sid, e.user)) drop(sid);
  };

  async function issue(sessionId: string, userId: string, expiresAt: Date, tx: Db = db): Promise<IssuedTokens> {
    const refreshToken = randomToken();
    await tx.insert(refreshTokens).values({ tokenHash: sha256(refreshToken), sessionId });
    return { token: await access.sign({ sub: userId, sid: sessionId }), refreshToken, sessionId, expiresAt };
  }

  async function revokeWhere(which: SQL, reason: string, matches: (sessionId: string, user: SessionUser) => boolean) {
    forget(matches);
    await db
      .update(sessions)
      .set({ revokedAt: sql`now()`, revokedReason: reason })
      .where(and(which, isNull(sessions.revokedAt)));
    // Again: a check that was running during the update may have cached the session meanwhile.
    forget(matches);
  }

  return {
    async start(userId: string, meta: { ip?: string; userAgent?: string }): Promise<IssuedTokens> {
      const id = randomUUID();
      const expiresAt = new Date(Date.now() + refreshLifetimeSeconds * 1000);
      await db.insert(sessions).values({
        id,
        userId,
        expiresAt,
        ip: meta.ip ?? null,
        userAgent: meta.userAgent?.slice(0, 300) ?? null,
      });
      return issue(id, userId, expiresAt);
    },

    /**
     * Spends a refresh token. Answers the user and new tokens, or a reason for refusing; a reused
     * token revokes its family.
     */
    async rotate(
      refreshToken: string,
    ): Promise<{ ok: true; user: UserRow; tokens: IssuedTokens } | { ok: false; reason: 'unknown' | 'reused' | 'ended' }> {
      const hash = sha256(refreshToken);
      return db.transaction(async (tx) => {
        // Marking it used in the same statement that checks it: two concurrent uses cannot both win.
        const spent = await tx
          .update(refreshTokens)
          .set({ usedAt: sql`now()` })
          .where(and(eq(refreshTokens.tokenHash, hash), isNull(refreshTokens.usedAt)))
          .returning({ sessionId: refreshTokens.sessionId });
        const sessionId = spent[0]?.sessionId;
        if (!sessionId) {
          const [known] = await tx
            .select({ sessionId: refreshTokens.sessionId })
            .from(refreshTokens)
            .where(eq(refreshTokens.tokenHash, hash));
          if (!known) return { ok: false, reason: 'unknown' } as const;
          await tx
            .update(sessions)
            .set({ revokedAt: sql`now()`, revokedReason: 'refresh token reused' })
            .where(and(eq(sessions.id, known.sessionId), isNull(sessions.revokedAt)));
          drop(known.sessionId);
          return { ok: false, reason: 'reused' } as const;
        }
        const [row] = await tx
          .select({ session: sessions, user: users })
          .from(sessions)
          .innerJoin(users, eq(users.id, sessions.userId))
          .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`)));
        if (!row) return { ok: false, reason: 'ended' } as const;
        const tokens = await issue(sessionId, row.user.id, row.session.expiresAt, tx as unknown as Db);
        return { ok: true, user: row.user, tokens } as const;
      });
    },

    /** The user of a live session, for authenticating an access token. */
    async userOf(sessionId: string, userId: string): Promise<SessionUser | undefined> {
      const now = Date.now();
      const hit = cache.get(sessionId);
      if (hit && hit.until > now && hit.user.id === userId) return hit.user;
      const [row] = await db
        .select({ user: sessionUserSelection, expiresAt: sessions.expiresAt })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(
          and(eq(sessions.id, sessionId), eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`)),
        );
      drop(sessionId);
      if (!row) return undefined;
      if (cacheMs > 0) {
        const bytes = entryBytes(sessionId, row.user);
        // Bounded in bytes: the oldest entries go first.
        while (cache.size && cacheBytes + bytes > cacheMaxBytes) drop(cache.keys().next().value as string);
        if (bytes <= cacheMaxBytes) {
          cache.set(sessionId, { user: row.user, until: Math.min(now + cacheMs, row.expiresAt.getTime()), bytes });
          cacheBytes += bytes;
        }
      }
      return row.user;
    },

    /** What the cache holds now (tests and the benchmark look at it). */
    cacheStats: () => ({ entries: cache.size, bytes: cacheBytes }),

    /** Drops cached copies of a user after its row changed. */
    forgetUser: (userId: string) => forget((_sid, u) => u.id === userId),

    revoke: (sessionId: string, reason: string) => revokeWhere(eq(sessions.id, sessionId), reason, (sid) => sid === sessionId),

    async sessionOfRefreshToken(refreshToken: string): Promise<string | undefined> {
      const [row] = await db
        .select({ sessionId: refreshTokens.sessionId })
        .from(refreshTokens)
        .where(eq(refreshTokens.tokenHash, sha256(refreshToken)));
      return row?.sessionId;
    },

    /** Whether the refresh token belongs to a live session of this user (spent tokens count: the cookie may lag). */
    async refreshTokenOf(refreshToken: string, userId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: sessions.id })
        .from(refreshTokens)
        .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
        .where(
          and(eq(refreshTokens.tokenHash, sha256(refreshToken)), eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, sql`now()`)),
        );
      return Boolean(row);
    },

    revokeAllOfUser: (userId: string, reason: string) =>
      revokeWhere(eq(sessions.userId, userId), reason, (_sid, u) => u.id === userId),
  };
}
export type Sessions = ReturnType<typeof createSessions>;
