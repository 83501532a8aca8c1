import { useTranslation } from '@app/singletons/react-i18n';
import type { CabinetPool } from '@app/contracts';
import { formatPercent, formatUsd } from '@app/web3';

/** APY (compounded daily) and APR, TVL, risk and the user's position, from the cabinet summary. */
export function PoolFigures({ pool, compact = false }: { pool: CabinetPool; compact?: boolean }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.language;
  const items: [string, string, string][] = [
    ['apy', t('insight.apy'), formatPercent(pool.apy, lang)],
    ['apr', t('insight.apr'), formatPercent(pool.apr, lang)],
    ['tvl', t('insight.tvl'), formatUsd(pool.tvlUsd, lang)],
    ['risk', t('insight.risk'), t(`insight.risks.${pool.riskLevel}`, { defaultValue: pool.riskLevel })],
    ['position', t('insight.position'), formatUsd(pool.valueUsd, lang)],
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
