import { useLayoutEffect, useRef } from 'react';
import type { Glyph } from './coin-glyphs/glyph';

/** The coins the product takes (spec: ETH and the allowlisted tokens). */
export type Coin = 'ETH' | 'USDT' | 'USDC' | 'BUSD' | 'SOL' | 'BNB' | 'WAVES';

// Each mark: a disc in the coin's own colour (a design token, --coin-*) and a simple glyph in the
// token on it. Drawn here, no third-party asset. Each glyph is a small chunk of its own, fetched
// when its coin is first shown: a page carries the glyphs of the coins it shows, not every coin's,
// and the disc (the coin's colour, at its final size) is there from the first paint.
const GLYPHS: Record<Coin, () => Promise<{ glyph: Glyph }>> = {
  ETH: () => import(/* webpackChunkName: "coin-eth" */ './coin-glyphs/eth'),
  USDT: () => import(/* webpackChunkName: "coin-usdt" */ './coin-glyphs/usdt'),
  USDC: () => import(/* webpackChunkName: "coin-usdc" */ './coin-glyphs/usdc'),
  BUSD: () => import(/* webpackChunkName: "coin-busd" */ './coin-glyphs/busd'),
  SOL: () => import(/* webpackChunkName: "coin-sol" */ './coin-glyphs/sol'),
  BNB: () => import(/* webpackChunkName: "coin-bnb" */ './coin-glyphs/bnb'),
  WAVES: () => import(/* webpackChunkName: "coin-waves" */ './coin-glyphs/waves'),
};

export const COINS = Object.keys(GLYPHS) as Coin[];

const loaded = new Map<Coin, Glyph>();
const loading = new Map<Coin, Promise<Glyph>>();
function glyphOf(coin: Coin): Promise<Glyph> {
  let promise = loading.get(coin);
  if (!promise) {
    promise = GLYPHS[coin]().then(({ glyph }) => {
      loaded.set(coin, glyph);
      return glyph;
    });
    // A failed fetch is tried again by the next mark of that coin; this one keeps its disc.
    promise.catch(() => loading.delete(coin));
    loading.set(coin, promise);
  }
  return promise;
}

const SVG = 'http://www.w3.org/2000/svg';

/**
 * Draws the glyph into the mark's svg with the DOM (styled through the CSSOM, which the CSP allows),
 * not through React state: a mark is decoration, and its arrival re-renders nothing. A glyph
 * already fetched is drawn before the browser paints.
 */
function draw(svg: SVGSVGElement, coin: Coin, glyph: Glyph) {
  for (const { d, opacity } of glyph) {
    const path = document.createElementNS(SVG, 'path');
    path.setAttribute('d', d);
    if (opacity) path.setAttribute('opacity', opacity);
    path.style.fill = `var(--coin-${coin.toLowerCase()}-ink)`;
    svg.append(path);
  }
}

/**
 * A coin's mark beside an amount. Decorative by default (the amount names its currency in text);
 * given a `label`, it is an image with that name.
 */
export function CoinMark({ coin, size = 20, label }: { coin: Coin; size?: number; label?: string }) {
  const svg = useRef<SVGSVGElement>(null);
  useLayoutEffect(() => {
    const el = svg.current;
    if (!el) return;
    let live = true;
    const known = loaded.get(coin);
    if (known) draw(el, coin, known);
    else glyphOf(coin).then((glyph) => live && draw(el, coin, glyph), () => undefined);
    return () => {
      live = false;
      // The disc is React's; the paths are this effect's.
      el.querySelectorAll('path').forEach((p) => p.remove());
    };
  }, [coin]);
  const a11y = label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true };
  return (
    <svg ref={svg} className="coin-mark" data-coin={coin} viewBox="0 0 24 24" width={size} height={size} focusable="false" {...a11y}>
      <circle cx="12" cy="12" r="12" style={{ fill: `var(--coin-${coin.toLowerCase()})` }} />
    </svg>
  );
}
