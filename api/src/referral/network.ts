import { sql, type SQL } from 'drizzle-orm';
import { getAddress } from 'ethers';
import type { AffiliateSort } from '@app/contracts';
import type { Db } from '../db/client';
import { preparedByText, rows } from '../db/rows';
import type { PriceSource } from '../pricing';

/** The price source's current USD prices with each currency's decimals, as an SQL subquery of (currency, usd, decimals) to alias. */
export async function priceTable(db: Db, source: PriceSource): Promise<SQL> {
  const known = await rows<{ code: string; decimals: number }>(db, sql`select code, decimals from currencies order by code`);
  const prices = await source.usdPrices(known.map((c) => c.code));
  const priced = known.filter((c) => /^\d+(\.\d+)?$/.test(prices.get(c.code) ?? ''));
  // An empty VALUES list is not SQL: a row that matches no currency stands in.
  const values = priced.length
    ? sql.join(priced.map((c) => sql`(${c.code}::text, ${prices.get(c.code)!}::numeric, ${c.decimals}::int)`), sql`, `)
    : sql`(''::text, 0::numeric, 0::int)`;
  return sql`(select * from (values ${values}) v(currency, usd, decimals))`;
}

/** The USD value of a user's positions (`u` the users alias), at the given prices. */
const capitalOf = (prices: SQL, user: SQL) => sql`coalesce((
  select sum(-a.balance * pr.usd / power(10::numeric, pr.decimals)) from ledger_accounts a join ${prices} pr on pr.currency = a.currency
  where a.user_id = ${user} and a.kind = 'position'), 0)`;

/**
 * Members per level (1 … depth) and the US-dollar value of their current positions (net of
 * withdrawals: a requested withdrawal has left the position), at the price source's prices. Read
 * from the figures kept per referrer (0022): a few rows whatever the size of the downline.
 */
export async function downline(db: Db, prices: SQL, userId: string, depth: number) {
  // Prepared (per price table's shape): planning it costs more than running it on a few kept rows.
  const found = await preparedByText<{ level: number; members: string; capital: string }>(
    db,
    'referral_downline',
    sql`select m.level, m.members::text as members,
          coalesce((select sum(-c.balance * pr.usd / power(10::numeric, pr.decimals)) from referral_capital c join ${prices} pr on pr.currency = c.currency
                    where c.ancestor_id = m.ancestor_id and c.level = m.level), 0)::text as capital
        from referral_members m where m.ancestor_id = ${userId} and m.level <= ${depth} and m.members > 0
        order by m.level`,
  );
  return found.map((r) => ({ level: Number(r.level), members: Number(r.members), capital: r.capital }));
}

/** The USD value of a user's rewards in every currency they were paid in, at current prices, from their kept totals (0022) and any sums of a day's parts not yet in them. */
export async function rewardsUsd(db: Db, prices: SQL, userId: string): Promise<string> {
  const [r] = await preparedByText<{ usd: string }>(
    db,
    'referral_rewards_usd',
    sql`select coalesce(sum(x.amount * pr.usd / power(10::numeric, pr.decimals)), 0)::text as usd
        from (select currency, sum(amount) as amount from (
                select currency, amount from referral_reward_totals where user_id = ${userId} and status <> 'forfeited'
                -- The sums of a pool day's parts not yet in the day's rows (0046).
                union all select currency, amount from referral_part_sums where user_id = ${userId}
              ) r group by currency) x
        join ${prices} pr on pr.currency = x.currency`,
  );
  return r?.usd ?? '0';
}

/**
 * The bands a member's capital is shown in, in whole US dollars: a referrer sees how much a member
 * holds roughly, never the amount (capital attracted, the sum over the downline, is exact).
 */
export const CAPITAL_BANDS_USD = [0, 100, 1000, 10_000, 100_000] as const;

/** The band of a capital: 0 for nothing held, then 1 … the number of bands (the last has no top). */
const bandOf = (capital: SQL) =>
  sql`case when ${capital} <= 0 then 0 ${sql.join(CAPITAL_BANDS_USD.slice(1).map((top, i) => sql`when ${capital} < ${top} then ${i + 1}`), sql` `)} else ${CAPITAL_BANDS_USD.length} end`;

/** A band as the contract shows it: from and to in dollars (to null for the top band; both '0' for nothing held). */
export function capitalBand(band: number): { fromUsd: string; toUsd: string | null } {
  if (band <= 0) return { fromUsd: '0', toUsd: '0' };
  return { fromUsd: String(CAPITAL_BANDS_USD[band - 1]), toUsd: band < CAPITAL_BANDS_USD.length ? String(CAPITAL_BANDS_USD[band]) : null };
}

// Ordered by capital, members within a band stay in the order they joined: the order tells no more than the band.
const order: Record<AffiliateSort, SQL> = {
  joined_desc: sql`joined desc, id desc`,
  joined_asc: sql`joined asc, id asc`,
  capital_desc: sql`band desc, joined desc, id desc`,
  capital_asc: sql`band asc, joined asc, id asc`,
  rewards_desc: sql`rewards desc, joined desc, id desc`,
  rewards_asc: sql`rewards asc, joined asc, id asc`,
};

/** "jane@example.com" → "j***@example.com": enough to recognise a friend, not to write to them. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 1) return '***';
  return `${email.slice(0, 1)}***${email.slice(at)}`;
}

/** Spec §9: a wallet is shown by its first 6 and last 6 characters. */
export function shortWallet(address: string): string {
  const a = getAddress(address);
  return `${a.slice(0, 6)}…${a.slice(-6)}`;
}

/** One level of the downline, one page, sorted in the database; each member's capital as its band only. */
export async function affiliatesPage(
  db: Db,
  prices: SQL,
  q: { userId: string; level: number; page: number; size: number; sort: AffiliateSort; currency: string },
) {
  const found = await rows<{ email: string | null; wallet: string | null; joined: string | Date; band: number; rewards: string; total: string }>(
    db,
    sql`with members as (
          select u.id, u.email, u.wallet_address as wallet, u.created_at as joined,
                 ${capitalOf(prices, sql`u.id`)} as capital,
                 -- What the member gave the referrer, kept per month (0035): the level's share of a few rows per member.
                 coalesce((select sum(m.amounts[${q.level}::int]) from referral_member_rewards m where m.member_id = u.id and m.currency = ${q.currency}), 0) as rewards
          from referral_tree t
          join users u on u.id = t.user_id
          where t.ancestor_id = ${q.userId} and t.level = ${q.level}
        ),
        banded as (select *, ${bandOf(sql`capital`)} as band from members)
        select email, wallet, joined, band::int as band, rewards::text as rewards, count(*) over ()::text as total
        from banded order by ${order[q.sort]}
        limit ${q.size} offset ${(q.page - 1) * q.size}`,
  );
  let total = Number(found[0]?.total ?? 0);
  if (!found.length && q.page > 1) {
    const [c] = await rows<{ n: string }>(db, sql`select count(*)::text as n from referral_tree where ancestor_id = ${q.userId} and level = ${q.level}`);
    total = Number(c?.n ?? 0);
  }
  return {
    total,
    items: found.map((r) => ({
      member: r.email ? maskEmail(r.email) : r.wallet ? shortWallet(r.wallet) : '***',
      joinedAt: new Date(r.joined).toISOString(),
      capitalBand: capitalBand(Number(r.band)),
      rewards: r.rewards,
    })),
  };
}

/** Two decimals, cut (never rounded up): '1234.5678' → '1234.56'. */
export function usd2(v: string): string {
  const negative = v.startsWith('-');
  const [int = '0', frac = ''] = v.replace(/^-/, '').split('.');
  return `${negative ? '-' : ''}${int}.${(frac + '00').slice(0, 2)}`;
}

/** A non-negative decimal string as an integer of 10⁻⁸, digits beyond the eighth cut. */
export const toE8 = (v: string): bigint => {
  const [int = '0', frac = ''] = v.split('.');
  return BigInt(int) * 10n ** 8n + BigInt((frac + '00000000').slice(0, 8));
};
export const fromE8 = (n: bigint): string => `${n / 10n ** 8n}.${String(n % 10n ** 8n).padStart(8, '0')}`;
