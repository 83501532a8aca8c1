import { Link } from '@app/singletons/router';
import { useTranslation } from '@app/singletons/react-i18n';
import type { PoolName } from '@app/contracts';
import { Amount, TableScroll, useRemote, useServerData } from '@app/ui';

/** Base units of a coin as the design system shows amounts: its mark, precision by magnitude, the exact figure on demand. */
export const coinFigure = (units: bigint | string, currency: string, decimals: Record<string, number>, lang: string) => (
  <Amount units={units} decimals={decimals[currency] ?? 18} currency={currency} lang={lang} />
);

/** Per currency, what the pool's addresses hold on chain and what its books say they should. */
type Held = { currency: string; onChain: bigint | null; books: bigint };

/**
 * The pools' reserves, read after the figures above (each is a reconciliation against the chain,
 * kept a few seconds by the server): a visitor sees that the money on the books is on chain.
 */
export function Reserves({ pools, decimals, lang }: { pools: { pool: PoolName; title: string }[]; decimals: Record<string, number>; lang: string }) {
  const { t } = useTranslation();
  const { api } = useRemote();
  const { state } = useServerData(
    (signal) =>
      Promise.all(
        pools.map(async ({ pool }) => {
          const answer = await api.call('poolReserves', { params: { pool }, signal });
          const byCurrency = new Map<string, Held>();
          for (const item of answer.items) {
            const held = byCurrency.get(item.currency) ?? { currency: item.currency, onChain: 0n, books: 0n };
            held.onChain = held.onChain === null || item.onChain === null ? null : held.onChain + BigInt(item.onChain);
            held.books += BigInt(item.books);
            byCurrency.set(item.currency, held);
          }
          return { pool, checkedAt: answer.checkedAt, items: [...byCurrency.values()] };
        }),
      ),
    [api, pools.map((p) => p.pool).join()],
  );
  const coin = (units: bigint, currency: string) => coinFigure(units, currency, decimals, lang);
  const titleOf = new Map(pools.map((p) => [p.pool, p.title]));

  return (
    <section className="section" aria-labelledby="home-reserves">
      <h2 id="home-reserves">{t('home.reserves')}</h2>
      <p className="muted">{t('home.reservesNote')}</p>
      {/* The full proof (mf-pools' public page): liabilities against reserves, checkable by anyone. */}
      <p>
        <Link to="/solvency" data-testid="home-solvency-link">
          {t('home.solvencyLink')}
        </Link>
      </p>
      {state.status === 'loading' ? (
        <p className="muted" role="status">
          {t('loading')}
        </p>
      ) : state.status === 'error' ? (
        <p className="muted">{t('home.reservesUnavailable')}</p>
      ) : (
        <TableScroll labelledBy="home-reserves">
          <table className="data-table" data-testid="home-reserves">
            <thead>
              <tr>
                <th scope="col">{t('home.pool')}</th>
                <th scope="col">{t('home.currency')}</th>
                <th scope="col" className="num">{t('home.onChain')}</th>
                <th scope="col" className="num">{t('home.books')}</th>
              </tr>
            </thead>
            <tbody>
              {state.data.flatMap((p) =>
                p.items.map((h) => (
                  <tr key={`${p.pool}-${h.currency}`}>
                    <th scope="row">{titleOf.get(p.pool)}</th>
                    <td>{h.currency}</td>
                    <td className="num">{h.onChain === null ? t('home.notRead') : coin(h.onChain, h.currency)}</td>
                    <td className="num">{coin(h.books, h.currency)}</td>
                  </tr>
                )),
              )}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
