import { expect, type Locator } from '@playwright/test';

// Coin amounts as the design system shows them (issue 25), computed here from base units on their own:
// six significant digits (at least two places from one coin up), rounded half up, and the exact figure
// in the amount's data-full attribute (its title and a press show it too).

const grouped = (int: bigint) => int.toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** Every digit of base units, grouped en-US, trailing zeros cut: 1234500000n with 6 decimals → "1,234.5". */
export function exactCoin(units: bigint, decimals: number): string {
  const unit = 10n ** BigInt(decimals);
  const frac = (units % unit).toString().padStart(decimals, '0').replace(/0+$/, '');
  return frac ? `${grouped(units / unit)}.${frac}` : grouped(units / unit);
}

/** The short figure: 1000657000000000000n (18) → "1.00066"; 21912345678n (18) → "0.0000000219123". */
export function shortCoin(units: bigint, decimals: number): string {
  const unit = 10n ** BigInt(decimals);
  let places: number;
  if (units >= unit) places = Math.max(2, 6 - (units / unit).toString().length);
  else places = decimals - units.toString().length + 6;
  if (places >= decimals) return exactCoin(units, decimals);
  const step = 10n ** BigInt(decimals - places);
  return exactCoin(((units + step / 2n) / step) * step, decimals);
}

/** The one amount inside `scope` shows `units` of `currency` short, with its exact figure and the coin's mark. */
export async function expectAmount(scope: Locator, units: bigint, decimals: number, currency: string): Promise<void> {
  const amount = scope.locator('[data-full]');
  await expect(amount).toHaveText(`${shortCoin(units, decimals)} ${currency}`);
  await expect(amount).toHaveAttribute('data-full', exactCoin(units, decimals));
  await expect(amount.locator(`svg[data-coin="${currency}"]`)).toHaveCount(1);
}
