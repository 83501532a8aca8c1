// Dollar amounts typed by a person and the coin amounts they become. Decimal strings and bigint only.
import { SUPPORTED_CHAIN_ID } from '@app/contracts';
import {
  USD_INPUT_PREFIX,
  USD_PRECISION,
  decimalsOf,
  parseUnits,
  unitsToUsd,
  usdToUnits,
  formatUsd as formatSharedUsd,
  type Currency,
} from '@app/web3';
import type { PoolCoin } from '../pool/poolCoins';

/**
 * What the dollar input holds, from what is in it (spec §5: prefix '$ ', precision 1, minimum 0, no
 * negatives): the prefix and anything but digits and one point are dropped, the fraction cut to one digit.
 */
export function parseUsdInput(text: string): string {
  const body = text.startsWith(USD_INPUT_PREFIX) ? text.slice(USD_INPUT_PREFIX.length) : text;
  const cleaned = body.replace(/[^0-9.]/g, '');
  const point = cleaned.indexOf('.');
  if (point < 0) return stripLeadingZeros(cleaned);
  const whole = stripLeadingZeros(cleaned.slice(0, point)) || '0';
  const fraction = cleaned.slice(point + 1).replace(/\./g, '').slice(0, USD_PRECISION);
  return `${whole}.${fraction}`;
}

const stripLeadingZeros = (digits: string) => digits.replace(/^0+(?=\d)/, '');

/** The input's text for an amount: '' stays empty so the placeholder shows. */
export function usdInputText(amount: string): string {
  return amount === '' ? '' : `${USD_INPUT_PREFIX}${amount}`;
}

/** True for an amount above zero. */
export function isPositiveAmount(amount: string): boolean {
  return /^\d*\.?\d*$/.test(amount) && /[1-9]/.test(amount);
}

/** Decimals of a deposit currency on the supported chain (deposits happen on it only). */
export function depositDecimals(currency: Currency): number {
  const decimals = decimalsOf(currency, SUPPORTED_CHAIN_ID);
  if (decimals === undefined) throw new Error(`${currency} does not exist on chain ${SUPPORTED_CHAIN_ID}`);
  return decimals;
}

/**
 * Base units to send for a dollar amount at the pool's estimate, rounded up so the deposit is worth
 * at least the dollars asked for (spec §7: ETH scaled by 10^18, rounded up). Null when it cannot be
 * computed (no amount, or no price for the coin).
 */
export function depositUnits(usd: string, coin: PoolCoin): bigint | null {
  if (!isPositiveAmount(usd) || !/[1-9]/.test(coin.toFiat)) return null;
  return usdToUnits(usd, coin.toFiat, depositDecimals(coin.currency));
}

/** A network fee kept back by Max on ETH, so the transfer can still pay for its gas. */
export const ETH_GAS_RESERVE = parseUnits('0.002', 18);

/** The most dollars a balance covers (rounded down to the input's precision), for the Max button. */
export function maxUsd(balanceUnits: bigint, coin: PoolCoin): string {
  if (!/[1-9]/.test(coin.toFiat)) return '0';
  const spendable = coin.currency === 'ETH' ? balanceUnits - ETH_GAS_RESERVE : balanceUnits;
  if (spendable <= 0n) return '0';
  return unitsToUsd(spendable, coin.toFiat, depositDecimals(coin.currency), USD_PRECISION);
}

/** A US-dollar decimal string for people: "$ 1,234.5" (spec §9), the shared formatter keeping the input's places. */
export const formatUsd = (amount: string, locale: string): string => formatSharedUsd(amount, locale, {});
