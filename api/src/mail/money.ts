// Mail when money moves: a deposit credited, a withdrawal paid, held or returned, a reward claim paid.
// Queued inside the transaction that moves the money, under the event's key, so it goes out once,
// exactly when the move happened, however often (or on however many replicas) the job runs.
import { eq } from 'drizzle-orm';
import { SUPPORTED_CHAIN_ID, type BrandRegistry, type Lang } from '@app/contracts';
import { formatUnits } from 'ethers';
import { explorerTxUrl } from '@app/web3';
import type { Db } from '../db/client';
import { currencies, mailPreferences, users } from '../db/schema';
import { mailBrand } from './brand';
import type { Mailer } from './mailer';
import type { MailVars, MoneyMailKind } from './templates';

/** What a mail about money needs: the mailer, the brands (it goes as the default one) and the site's public address. */
export type MoneyNotice = { mailer: Mailer; brands: BrandRegistry; publicUrl: string };

/** Each switchable mail and the preference that switches it (security notices have none: always sent). */
export const MONEY_MAIL_PREFERENCE = {
  'deposit-credited': 'depositCredited',
  'withdrawal-paid': 'withdrawalPaid',
  'withdrawal-returned': 'withdrawalReturned',
  'claim-returned': 'withdrawalReturned',
  'claim-paid': 'claimPaid',
  'withdrawal-held': 'withdrawalHeld',
} as const satisfies Record<MoneyMailKind, keyof typeof mailPreferences.$inferSelect>;

export type MoneyEvent = {
  userId: string;
  kind: MoneyMailKind;
  /** The event's own id, e.g. `deposit-credited:42`: one mail per event. */
  event: string;
  amount: bigint | string;
  currency: string;
  pool?: string;
  /** The cabinet page the mail links to, e.g. `/cabinet/dashboard`. */
  page: string;
  /** The transaction that moved the money, for its explorer link. */
  txHash?: string | null;
  heldUntil?: string;
  reason?: MailVars['reason'];
};

type Tx = Pick<Db, 'select' | 'insert'>;

/** Queues the event's mail in the user's language, unless the account has none or switched it off. */
export async function mailMoney(tx: Tx, notice: MoneyNotice, e: MoneyEvent): Promise<void> {
  const [user] = await tx
    .select({ email: users.email, lang: users.lang, prefs: mailPreferences })
    .from(users)
    .leftJoin(mailPreferences, eq(mailPreferences.userId, users.id))
    .where(eq(users.id, e.userId));
  // A wallet-only account has no address: it sees the event in the cabinet only.
  if (!user?.email) return;
  if (user.prefs && !user.prefs[MONEY_MAIL_PREFERENCE[e.kind]]) return;
  const [currency] = await tx.select({ decimals: currencies.decimals }).from(currencies).where(eq(currencies.code, e.currency));
  const lang: Lang = user.lang === 'ru' ? 'ru' : 'en';
  const brand = notice.brands.defaultBrand;
  const look = mailBrand(notice.brands, brand, notice.publicUrl);
  await notice.mailer.send(
    user.email,
    lang,
    e.kind,
    {
      title: brand.title,
      brand: look,
      link: `${look.baseUrl}${lang === 'ru' ? '/ru' : ''}${e.page}`,
      amount: formatUnits(BigInt(e.amount), currency?.decimals ?? 0),
      currency: e.currency,
      ...(e.pool ? { pool: e.pool } : {}),
      ...(e.txHash ? { explorer: explorerTxUrl(SUPPORTED_CHAIN_ID, e.txHash) } : {}),
      ...(e.heldUntil ? { heldUntil: e.heldUntil } : {}),
      ...(e.reason ? { reason: e.reason } : {}),
    },
    tx,
    e.event,
  );
}
