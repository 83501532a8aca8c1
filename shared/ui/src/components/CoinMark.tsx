import type { CSSProperties, ReactElement } from 'react';

/** The coins the product takes (spec: ETH and the allowlisted tokens). */
export type Coin = 'ETH' | 'USDT' | 'USDC' | 'BUSD' | 'SOL' | 'BNB' | 'WAVES';

// Each mark: a disc in the coin's own colour (a design token, --coin-*) and a simple glyph in the
// token on it. Drawn here, small and inlined: no request, no third-party asset.
const disc = (token: string) => <circle cx="12" cy="12" r="12" style={{ fill: `var(--coin-${token})` }} />;
const ink = (token: string): CSSProperties => ({ fill: `var(--coin-${token}-ink)` });

const MARKS: Record<Coin, ReactElement> = {
  ETH: (
    <>
      {disc('eth')}
      <path d="M12 3.5 6.8 12.2 12 15.3l5.2-3.1Z" style={ink('eth')} />
      <path d="M12 16.3 6.8 13.2 12 20.5l5.2-7.3Z" style={ink('eth')} opacity="0.8" />
    </>
  ),
  USDT: (
    <>
      {disc('usdt')}
      <path d="M6.5 6.5h11v2.6h-4.2v2.2c2.4.1 4.2.6 4.2 1.2s-1.8 1.1-4.2 1.2V19h-2.6v-5.3c-2.4-.1-4.2-.6-4.2-1.2s1.8-1.1 4.2-1.2V9.1H6.5Z" style={ink('usdt')} />
    </>
  ),
  USDC: (
    <>
      {disc('usdc')}
      <path d="M12 5a7 7 0 1 0 0 14 7 7 0 0 0 0-14Zm0 1.6a5.4 5.4 0 1 1 0 10.8 5.4 5.4 0 0 1 0-10.8Z" style={ink('usdc')} />
      <path d="M11.2 8h1.6v1.1c1 .2 1.7.8 1.8 1.7h-1.5c-.1-.4-.5-.6-1.1-.6-.7 0-1 .3-1 .6 0 .4.4.5 1.3.7 1.4.3 2.4.7 2.4 1.9 0 .9-.7 1.6-1.9 1.8V16h-1.6v-1.1c-1.1-.2-1.9-.9-2-1.9h1.5c.1.5.6.8 1.3.8.7 0 1.1-.3 1.1-.7s-.3-.5-1.4-.8c-1.3-.3-2.3-.7-2.3-1.8 0-.9.7-1.5 1.8-1.7Z" style={ink('usdc')} />
    </>
  ),
  BUSD: (
    <>
      {disc('busd')}
      <path d="m12 5 2 2-5 5-2-2Zm3 3 2 2-7 7-2-2Zm3 3 2 2-5 5-2-2Z" style={ink('busd')} />
    </>
  ),
  SOL: (
    <>
      {disc('sol')}
      <path d="M8 7h10l-2 2H6Zm-2 4h10l2 2H8Zm2 4h10l-2 2H6Z" style={ink('sol')} />
    </>
  ),
  BNB: (
    <>
      {disc('bnb')}
      <path d="m12 5.5 2 2-2 2-2-2Zm-4.5 4.5 2 2-2 2-2-2Zm9 0 2 2-2 2-2-2Zm-4.5 0 2 2-2 2-2-2Zm0 4.5 2 2-2 2-2-2Z" style={ink('bnb')} />
    </>
  ),
  WAVES: (
    <>
      {disc('waves')}
      <path d="m12 5.5 6.5 6.5-6.5 6.5L5.5 12Z" style={ink('waves')} />
    </>
  ),
};

export const COINS = Object.keys(MARKS) as Coin[];

/**
 * A coin's mark beside an amount. Decorative by default (the amount names its currency in text);
 * given a `label`, it is an image with that name.
 */
export function CoinMark({ coin, size = 20, label }: { coin: Coin; size?: number; label?: string }) {
  const a11y = label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true };
  return (
    <svg className="coin-mark" data-coin={coin} viewBox="0 0 24 24" width={size} height={size} focusable="false" {...a11y}>
      {MARKS[coin]}
    </svg>
  );
}
