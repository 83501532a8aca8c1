// Figures for the referral pages (amounts are shown by the design system's Amount).

/** Basis points as the fraction the percent formatter takes: 1000 → "0.1", 25 → "0.0025". */
export function bpsFraction(bps: number): string {
  const whole = Math.trunc(bps / 10000);
  const rest = String(bps % 10000).padStart(4, '0').replace(/0+$/, '');
  return rest ? `${whole}.${rest}` : String(whole);
}
