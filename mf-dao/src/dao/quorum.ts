import { quorumCents } from '@app/contracts';
import { formatUnits, isDecimalAmount, parseUnits } from '@app/web3';

/**
 * The quorum in US dollars by its rule: `quorumBps` of all voting power, which is the dollar value of
 * every position, so the pools' value locked from the same books (the API's TVL, in cents). Exact in
 * cents, as bigints; rounded up, so the figure shown is enough to meet the rule. Null when a figure is
 * not a plain non-negative amount: no dollar quorum rather than a wrong one.
 */
export function quorumInUsd(quorumBps: string, poolsUsd: string[]): { quorumUsd: string; allUsd: string } | null {
  if (!/^\d+$/.test(quorumBps) || !poolsUsd.every(isDecimalAmount)) return null;
  const all = poolsUsd.reduce((sum, usd) => sum + parseUnits(usd, 2, 'down'), 0n);
  const quorum = quorumCents(all, BigInt(quorumBps));
  return { quorumUsd: formatUnits(quorum, 2), allUsd: formatUnits(all, 2) };
}
