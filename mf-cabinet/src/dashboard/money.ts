// Exact figures for the dashboard: base units and cents as bigint, text through the shared formatter.
// Decimals come with the summary (the server's currency table), so the token table stays out of the page.
import { parseUnits, unitsToUsd } from '@app/web3';

export type Decimals = Record<string, number>;

/** Cents of a balance at a price, rounded down (as the server values positions). */
export const centsOf = (units: bigint, priceUsd: string, decimals: number): bigint =>
  units <= 0n || !/[1-9]/.test(priceUsd) ? 0n : parseUnits(unitsToUsd(units, priceUsd, decimals, 2), 2);

/** Cents to the decimal string the formatter takes. */
export const centsText = (cents: bigint) => `${cents < 0n ? '-' : ''}${(cents < 0n ? -cents : cents) / 100n}.${String((cents < 0n ? -cents : cents) % 100n).padStart(2, '0')}`;

export const addDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
