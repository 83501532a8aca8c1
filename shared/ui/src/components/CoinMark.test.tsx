/** @jest-environment jsdom */
import { render } from '@testing-library/react';
import { CoinMark, COINS } from './CoinMark';

describe('CoinMark', () => {
  it('draws a mark for every coin the product takes, each coloured only by tokens', () => {
    expect([...COINS].sort()).toEqual(['BNB', 'BUSD', 'ETH', 'SOL', 'USDC', 'USDT', 'WAVES']);
    for (const coin of COINS) {
      const { container, unmount } = render(<CoinMark coin={coin} />);
      const svg = container.querySelector('svg')!;
      expect(svg.getAttribute('aria-hidden')).toBe('true');
      const fills = [...svg.querySelectorAll('circle, path')].map((el) => (el as SVGElement).style.fill);
      expect(fills.length).toBeGreaterThan(1);
      for (const fill of fills) expect(fill).toMatch(new RegExp(`^var\\(--coin-${coin.toLowerCase()}(-ink)?\\)$`));
      unmount();
    }
  });

  it('is an image with a name when given one', () => {
    const { getByRole } = render(<CoinMark coin="ETH" label="Ether" />);
    expect(getByRole('img', { name: 'Ether' })).toBeTruthy();
  });
});
