import { eq } from 'drizzle-orm';
import { formatUnits } from 'ethers';
import type { BrandRegistry, Lang } from '@app/contracts';
import type { Db } from '../db/client';
import { currencies, users } from '../db/schema';
import { mailBrand, type Mailer, type ReturnReason } from '../mail';
import type { WithdrawalRow } from './requests';

/** What a returned withdrawal's mail needs: the mailer, the brands (it goes as the default one) and the public address of the site. */
export type ReturnNotice = { mailer: Mailer; brands: BrandRegistry; publicUrl: string };

/**
 * Queues the mail telling the user that a withdrawal came back to the balance, in the user's language,
 * inside the transaction that returns it: the mail goes out once, exactly when the return happened.
 * An account without an e-mail (wallet sign-in) sees the reason in the list of withdrawals only.
 */
export async function mailReturned(tx: Pick<Db, 'select' | 'insert'>, notice: ReturnNotice, w: WithdrawalRow, reason: string) {
  const [user] = await tx.select({ email: users.email, lang: users.lang }).from(users).where(eq(users.id, w.userId));
  if (!user?.email) return;
  const [currency] = await tx.select({ decimals: currencies.decimals }).from(currencies).where(eq(currencies.code, w.currency));
  const lang: Lang = user.lang === 'ru' ? 'ru' : 'en';
  // A returned claim of referral rewards goes back to the rewards, not to a pool's balance.
  const claim = w.kind === 'referral';
  const brand = notice.brands.defaultBrand;
  const look = mailBrand(notice.brands, brand, notice.publicUrl);
  await notice.mailer.send(
    user.email,
    lang,
    claim ? 'claim-returned' : 'withdrawal-returned',
    {
      title: brand.title,
      brand: look,
      link: `${look.baseUrl}${lang === 'ru' ? '/ru' : ''}/cabinet/${claim ? 'refferal' : 'dashboard'}`,
      amount: formatUnits(BigInt(w.amount), currency?.decimals ?? 0),
      currency: w.currency,
      pool: w.pool,
      reason: reason.split(':')[0] as ReturnReason,
    },
    tx,
  );
}
