import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { getAddress } from 'ethers';
import { apiRoutes, type Profile } from '@app/contracts';
import type { UserRow } from '../auth/sessions';
import { users } from '../db/schema';
import { addRoute } from '../http/route';
import type { Services } from '../services';

function toProfile(u: Omit<UserRow, 'passwordHash'>): Profile {
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    phone: u.phone,
    telegram: u.telegram,
    avatar: u.avatar,
    walletAddress: u.walletAddress ? getAddress(u.walletAddress) : null,
    role: u.role,
    lang: u.lang === 'ru' ? 'ru' : 'en',
    referralCode: u.referralCode,
  };
}

/** undefined leaves a field as it is; null or '' clears it. */
const edit = (v: string | null | undefined) => (v === undefined ? undefined : v === null || v === '' ? null : v);

export function profileRoutes(app: FastifyInstance, s: Services) {
  // The user row was loaded with the session check; only an avatar (kept out of the session cache) costs a query.
  addRoute(
    app,
    apiRoutes.profile,
    async ({ auth }) => {
      const { hasAvatar, ...user } = auth.user;
      const [row] = hasAvatar ? await s.db.select({ avatar: users.avatar }).from(users).where(eq(users.id, user.id)) : [];
      return toProfile({ ...user, avatar: row?.avatar ?? null });
    },
    { allowUnconfirmed: true },
  );

  addRoute(app, apiRoutes.userUpdate, async ({ body, auth }) => {
    const changes = {
      name: edit(body.name),
      phone: edit(body.phone),
      telegram: edit(body.telegram),
      avatar: edit(body.avatar),
      lang: body.lang,
    };
    const set = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
    if (Object.keys(set).length === 0) {
      const [row] = await s.db.select().from(users).where(eq(users.id, auth.user.id));
      return toProfile(row as UserRow);
    }
    const [u] = await s.db
      .update(users)
      .set({ ...set, updatedAt: new Date() })
      .where(eq(users.id, auth.user.id))
      .returning();
    s.sessions.forgetUser(auth.user.id);
    return toProfile(u as UserRow);
  });
}
