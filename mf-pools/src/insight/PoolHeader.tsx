import { useTranslation } from '@app/singletons/react-i18n';
import type { CabinetPool } from '@app/contracts';
import { Fragment, type ReactNode } from 'react';
import { formatPercent, formatUsd } from '@app/web3';
import { CoinFigure } from '../deposit/CoinFigure';

/** The interest the user has earned in the pool, per coin ("0.0123 ETH, 1.5 USDT"); null when none. */
function earnedFigures(pool: CabinetPool): ReactNode {
  const earning = pool.positions.filter((p) => /[1-9]/.test(p.earned));
  if (!earning.length) return null;
  return earning.map((p, i) => (
    <Fragment key={p.currency}>
      {i ? ', ' : ''}
      <CoinFigure units={p.earned} currency={p.currency} />
    </Fragment>
  ));
}

/** APY (compounded daily) and APR, TVL, risk, the user's position and the interest it earned, from the cabinet summary. */
export function PoolFigures({ pool, compact = false }: { pool: CabinetPool; compact?: boolean }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const items: [string, string, ReactNode][] = [
    ['apy', t('insight.apy'), formatPercent(pool.apy, lang)],
    ['apr', t('insight.apr'), formatPercent(pool.apr, lang)],
    ['tvl', t('insight.tvl'), formatUsd(pool.tvlUsd, lang)],
    ['risk', t('insight.risk'), t(`insight.risks.${pool.riskLevel}`, { defaultValue: pool.riskLevel })],
    ['position', t('insight.position'), formatUsd(pool.valueUsd, lang)],
    ['earned', t('insight.earned'), earnedFigures(pool) ?? t('insight.earnedNone')],
  ];
  return (
    <dl className={compact ? 'pool-figures pool-figures--compact' : 'grid'} data-testid={`pool-figures-${pool.pool}`}>
      {items.map(([id, label, value]) => (
        <div key={id} className={compact ? 'stat' : 'card stat'} data-testid={`figure-${id}`}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
