/** Digits and one point, the fraction cut to the coin's decimals. */
export function parseCoinInput(text: string, decimals: number): string {
  const cleaned = text.replace(/[^0-9.]/g, '');
  const point = cleaned.indexOf('.');
  if (point < 0) return cleaned;
  return `${cleaned.slice(0, point)}.${cleaned.slice(point + 1).replace(/\./g, '').slice(0, decimals)}`;
}
