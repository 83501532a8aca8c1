import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Database } from '../db/client';
import { langOf } from './lang';

/** The channel migration 0040's triggers notify on: a comma-separated list of user ids, or `*`. */
export const USER_READS_CHANNEL = 'user_reads';
/** Everyone's answers: a statement touched too many users to name them (the daily accrual). */
export const EVERYONE = '*';
/** A replica's own marker on the channel (`caughtUp`): never a user id, and ignored by every other replica. */
const MARKER = 'heard:';
/** How long a write waits to hear its marker before it drops everything kept instead. */
export const CATCH_UP_MS = 2000;

type Entry = { user: string; at: number; started: number; value: Promise<unknown>; bytes: number };
type UserRecord = { keys: Set<string>; computing: number; evictedAt: number };

/** A rough size of a kept answer in bytes (UTF-16 strings and the map's own overhead). */
const sizeOf = (key: string, value: unknown) => 200 + 2 * (key.length + (JSON.stringify(value)?.length ?? 0));

/**
 * A signed-in user's read answers kept in memory, so a repeated read costs no query (issue 23).
 *
 * - At most `ttlMs` old. Only the user's own rows invalidate an entry at once: figures shared by
 *   everyone (a pool's total value locked, prices, APYs, the referral programme) may be this old.
 * - Dropped at once when the user's own rows change, on every replica: the database notifies the
 *   user ids a statement touched (migration 0040), or `*` for a statement over many users; and this
 *   replica drops a user's answers itself when it serves them a write (`evict`).
 * - Nothing is kept while the listener is not connected: a missed notify must never leave stale
 *   money figures. `ttlMs` 0 turns it off.
 * - A computation that started before an eviction of its user (or of everyone) stores nothing:
 *   each eviction bumps a generation, and an answer is kept only if its user's and the global
 *   generation did not move while it was computed.
 * - Concurrent misses of a key share one computation; a failure is not kept; bounded by
 *   `maxBytes`, the oldest go first.
 * - Dropping everyone's answers also calls `onEveryone` (the server drops its shared figures too:
 *   an APY or programme change is seen at once by the reads that compute).
 * - A write this replica serves returns only once every notify committed before it has been heard
 *   (`caughtUp`): so a read that follows it here never sees what the write changed from memory,
 *   whoever's answers it changed. On PostgreSQL a notify reaches the listener a moment after its
 *   commit; another replica's readers still see the change within that moment.
 */
export function createUserReads(ttlMs: number, maxBytes: number, onEveryone: () => void = () => {}) {
  const entries = new Map<string, Entry>();
  const users = new Map<string, UserRecord>();
  let bytes = 0;
  /** The generation: bumped by every eviction. */
  let clock = 0;
  /** The generation of the last eviction of everyone. */
  let flushedAt = 0;
  /** The listener is connected: notifies are heard. */
  let live = false;
  let stopListening: (() => Promise<void>) | null = null;
  /** Sends a notify on the channel (through the database's pool). */
  let send: ((payload: string) => Promise<unknown>) | null = null;
  /** This replica's markers not heard yet, each with what to do when it is (or when the listener drops). */
  const waiting = new Map<string, () => void>();

  const recordOf = (user: string) => {
    let r = users.get(user);
    if (!r) users.set(user, (r = { keys: new Set(), computing: 0, evictedAt: 0 }));
    return r;
  };
  const settle = (user: string) => {
    const r = users.get(user);
    if (r && r.keys.size === 0 && r.computing === 0) users.delete(user);
  };
  const remove = (key: string) => {
    const e = entries.get(key);
    if (!e) return;
    entries.delete(key);
    bytes -= e.bytes;
    users.get(e.user)?.keys.delete(key);
    settle(e.user);
  };
  const unchangedSince = (user: string, started: number) => flushedAt <= started && (users.get(user)?.evictedAt ?? 0) <= started;

  function evict(user: string) {
    clock += 1;
    if (user === EVERYONE) {
      onEveryone();
      flushedAt = clock;
      entries.clear();
      bytes = 0;
      // Users with a computation in flight keep their record (its count), emptied of keys.
      for (const [id, r] of users) {
        r.keys.clear();
        settle(id);
      }
      return;
    }
    const r = users.get(user);
    if (!r) return;
    r.evictedAt = clock;
    for (const key of [...r.keys]) remove(key);
  }

  return {
    /** The answer to `req` for `user` (null: a public read, shared by everyone), kept or computed. */
    read<T>(user: string | null, req: FastifyRequest, compute: () => Promise<T>): Promise<T> {
      if (ttlMs <= 0 || !live) return compute();
      const owner = user ?? '';
      // The path with its parameters, the query as validated (unknown fields gone; none for a route
      // without a query, so junk in a query string cannot multiply a user's entries), the language.
      const query = req.routeOptions?.schema?.querystring ? JSON.stringify(req.query) : '';
      const key = `${owner}\n${req.url.split('?')[0]}\n${query}\n${langOf(req)}`;
      const now = Date.now();
      const hit = entries.get(key);
      if (hit && now - hit.at < ttlMs && unchangedSince(owner, hit.started)) return hit.value as Promise<T>;
      if (hit) remove(key);
      const started = clock;
      const value = compute();
      const entry: Entry = { user: owner, at: now, started, value, bytes: 0 };
      const record = recordOf(owner);
      record.computing += 1;
      record.keys.add(key);
      entries.set(key, entry);
      const done = () => {
        record.computing -= 1;
        settle(owner);
      };
      value.then(
        (answer) => {
          done();
          if (entries.get(key) !== entry) return;
          if (!live || !unchangedSince(owner, started)) return remove(key);
          entry.bytes = sizeOf(key, answer);
          bytes += entry.bytes;
          while (bytes > maxBytes && entries.size) remove(entries.keys().next().value as string);
        },
        () => {
          done();
          if (entries.get(key) === entry) remove(key);
        },
      );
      return value;
    },

    /** Drops the user's answers (or everyone's, `*`) at once; a computation in flight stores nothing. */
    evict,

    /**
     * Resolves once the listener has heard every notify committed before the call: it sends a
     * marker of its own and waits to hear it, as PostgreSQL delivers notifies in commit order.
     * Not heard in time (or not sent), everything kept is dropped instead.
     */
    async caughtUp(timeoutMs = CATCH_UP_MS): Promise<void> {
      if (ttlMs <= 0 || !live || !send) return;
      const marker = `${MARKER}${randomUUID()}`;
      let timer: NodeJS.Timeout | undefined;
      const heard = new Promise<boolean>((resolve) => {
        waiting.set(marker, () => resolve(true));
        timer = setTimeout(() => resolve(false), timeoutMs);
      });
      try {
        const sent = await send(marker).then(
          () => true,
          () => false,
        );
        if (!sent || !(await heard)) evict(EVERYONE);
      } finally {
        clearTimeout(timer);
        waiting.delete(marker);
      }
    },

    /** Hears the database's notifies; until connected, and whenever it is not, nothing is kept. */
    async listen(database: Pick<Database, 'listen' | 'notify'>) {
      if (ttlMs <= 0) return;
      send = (payload) => database.notify(USER_READS_CHANNEL, payload);
      stopListening = await database.listen(USER_READS_CHANNEL, {
        onNotify: (payload) => {
          if (payload.startsWith(MARKER)) return waiting.get(payload)?.();
          for (const user of payload.split(',')) if (user) evict(user);
        },
        onState: (connected) => {
          // Whatever was kept may have missed a notify while the connection was down, or before it was up.
          if (connected !== live) evict(EVERYONE);
          live = connected;
          // Nothing is kept while down, and everything was dropped: a write waiting on its marker need not.
          if (!connected) for (const done of waiting.values()) done();
        },
      });
    },

    async close() {
      live = false;
      send = null;
      await stopListening?.();
      stopListening = null;
      evict(EVERYONE);
    },

    /** For tests and the bench: how much is kept. */
    stats: () => ({ entries: entries.size, bytes, users: users.size, live }),
  };
}
export type UserReads = ReturnType<typeof createUserReads>;
