import { useTranslation } from '@app/singletons/react-i18n';
import type { CabinetPool } from '@app/contracts';
import { formatPercent, formatUsd, isCurrency } from '@app/web3';
import { formatCoin } from '../deposit/amounts';

/** The interest the user has earned in the pool, per coin ("0.0123 ETH, 1.5 USDT"); '' when none. */
function earnedText(pool: CabinetPool, lang: string): string {
  return pool.positions
    .filter((p) => /[1-9]/.test(p.earned))
    .map((p) => (isCurrency(p.currency) ? formatCoin(BigInt(p.earned), p.currency, lang) : `${p.earned} ${p.currency}`))
    .join(', ');
}

/** APY (compounded daily) and APR, TVL, risk, the user's position and the interest it earned, from the cabinet summary. */
export function PoolFigures({ pool, compact = false }: { pool: CabinetPool; compact?: boolean }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const items: [string, string, string][] = [
    ['apy', t('insight.apy'), formatPercent(pool.apy, lang)],
    ['apr', t('insight.apr'), formatPercent(pool.apr, lang)],
    ['tvl', t('insight.tvl'), formatUsd(pool.tvlUsd, lang)],
    ['risk', t('insight.risk'), t(`insight.risks.${pool.riskLevel}`, { defaultValue: pool.riskLevel })],
    ['position', t('insight.position'), formatUsd(pool.valueUsd, lang)],
    ['earned', t('insight.earned'), earnedText(pool, lang) || t('insight.earnedNone')],
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
