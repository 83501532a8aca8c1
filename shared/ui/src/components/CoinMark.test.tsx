/** @jest-environment jsdom */
import { render, waitFor } from '@testing-library/react';
import { CoinMark, COINS } from './CoinMark';

const fillsOf = (svg: SVGSVGElement) => [...svg.querySelectorAll('circle, path')].map((el) => (el as SVGElement).style.fill);

describe('CoinMark', () => {
  it('draws a mark for every coin the product takes, its disc at once and its glyph once fetched, each coloured only by tokens', async () => {
    expect([...COINS].sort()).toEqual(['BNB', 'BUSD', 'ETH', 'SOL', 'USDC', 'USDT', 'WAVES']);
    for (const coin of COINS) {
      const { container, unmount } = render(<CoinMark coin={coin} />);
      const svg = container.querySelector('svg')!;
      expect(svg.getAttribute('aria-hidden')).toBe('true');
      expect(svg.querySelectorAll('circle')).toHaveLength(1);
      await waitFor(() => expect(svg.querySelectorAll('path').length).toBeGreaterThan(0));
      const token = coin.toLowerCase();
      const fills = fillsOf(svg);
      expect(fills[0]).toBe(`var(--coin-${token})`);
      for (const fill of fills.slice(1)) expect(fill).toBe(`var(--coin-${token}-ink)`);
      unmount();
    }
  });

  it('draws a glyph already fetched before the first paint, once, and redraws when the coin changes', async () => {
    const { container, rerender } = render(<CoinMark coin="ETH" />);
    await waitFor(() => expect(container.querySelectorAll('path').length).toBeGreaterThan(0));
    const ethPaths = container.querySelectorAll('path').length;
    // A second mark of a fetched coin has its glyph in the same render.
    const again = render(<CoinMark coin="ETH" />);
    expect(again.container.querySelectorAll('path')).toHaveLength(ethPaths);
    rerender(<CoinMark coin="SOL" />);
    await waitFor(() => expect(fillsOf(container.querySelector('svg')!).slice(1)).toEqual(expect.arrayContaining(['var(--coin-sol-ink)'])));
    expect(fillsOf(container.querySelector('svg')!).filter((f) => f.includes('eth'))).toEqual([]);
  });

  it('is an image with a name when given one', () => {
    const { getByRole } = render(<CoinMark coin="ETH" label="Ether" />);
    expect(getByRole('img', { name: 'Ether' })).toBeTruthy();
  });
});
