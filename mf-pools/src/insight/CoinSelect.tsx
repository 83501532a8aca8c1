import type { PoolCoin } from '../pool/poolCoins';

/** A labelled choice among the pool's coins. */
export function CoinSelect({ label, coins, value, onChange, testId }: { label: string; coins: readonly PoolCoin[]; value: PoolCoin['currency']; onChange(c: PoolCoin['currency']): void; testId?: string }) {
  return (
    <label className="field">
      <span>{label}</span>
      <select value={value} onChange={(e) => onChange(e.target.value as PoolCoin['currency'])} data-testid={testId}>
        {coins.map((c) => (
          <option key={c.currency} value={c.currency}>
            {c.currency}
          </option>
        ))}
      </select>
    </label>
  );
}
