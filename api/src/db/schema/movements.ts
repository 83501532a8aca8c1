import { bigserial, text, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth';
import { currencies, pools } from './catalog';
import { created, baseUnits } from './columns';

/** The columns a movement of money in or out of a pool has. */
export const poolMovement = () => ({
  id: bigserial('id', { mode: 'number' }).primaryKey(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id),
  pool: text('pool')
    .notNull()
    .references(() => pools.name),
  currency: text('currency')
    .notNull()
    .references(() => currencies.code),
  amount: baseUnits('amount').notNull(),
  createdAt: created(),
});
