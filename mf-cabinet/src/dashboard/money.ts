// Exact figures for the dashboard: base units and cents as bigint, text through the shared formatter.
import { SUPPORTED_CHAIN_ID, decimalsOf, formatCoinUnits, isCurrency, parseUnits, unitsToUsd } from '@app/web3';

export const decimalsOfCode = (currency: string): number => (isCurrency(currency) ? (decimalsOf(currency, SUPPORTED_CHAIN_ID) ?? 18) : 18);

/** "1.000657 ETH" in the page's language. */
export const coinText = (units: string | bigint, currency: string, lang: string) => `${formatCoinUnits(units, decimalsOfCode(currency), lang)} ${currency}`;

/** Cents of a balance at a price, rounded down (as the server values positions). */
export const centsOf = (units: bigint, priceUsd: string, currency: string): bigint =>
  units <= 0n || priceUsd === '0' ? 0n : parseUnits(unitsToUsd(units, priceUsd, decimalsOfCode(currency), 2), 2);

/** Cents to the decimal string the formatter takes. */
export const centsText = (cents: bigint) => `${cents < 0n ? '-' : ''}${(cents < 0n ? -cents : cents) / 100n}.${String((cents < 0n ? -cents : cents) % 100n).padStart(2, '0')}`;

export const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
