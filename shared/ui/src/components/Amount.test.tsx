/** @jest-environment jsdom */
import { fireEvent, render } from '@testing-library/react';
import { Amount, WithAmount, AMOUNT_SLOT } from './Amount';

// Issue 25 / issue 27, finding 4: a coin amount with its mark, precision by magnitude, the full figure on demand.
describe('Amount', () => {
  it('finding 4: shows a rounded figure with the coin mark, the exact one in its title, name and data, and on a press', () => {
    // 1.1799999999999998 ETH: six significant digits are 1.18000, printed 1.18.
    const { container, getByRole } = render(<Amount units={1179999999999999800n} decimals={18} currency="ETH" lang="en" testId="a" />);
    const figure = container.querySelector('[data-testid="a"]')!;
    expect(figure.querySelector('svg.coin-mark')!.getAttribute('data-coin')).toBe('ETH');
    expect(figure.getAttribute('data-full')).toBe('1.1799999999999998');
    expect(figure.getAttribute('data-units')).toBe('1179999999999999800');
    const button = getByRole('button', { name: '1.1799999999999998 ETH, press for the exact figure' });
    expect(button.textContent).toBe('1.18\u00a0ETH');
    expect(button.getAttribute('title')).toBe('1.1799999999999998 ETH');
    fireEvent.click(button);
    expect(button.textContent).toBe('1.1799999999999998\u00a0ETH');
    expect(button.getAttribute('aria-pressed')).toBe('true');
  });

  it('finding 4: under /ru the decimal separator is a comma, and the label Russian', () => {
    const { getByRole } = render(<Amount units={1234567891n} decimals={18} currency="ETH" lang="ru" />);
    const button = getByRole('button', { name: '0,000000001234567891 ETH, нажмите, чтобы увидеть точное число' });
    expect(button.textContent).toBe('0,00000000123457\u00a0ETH');
  });

  it('an amount with no digit to drop is plain text (nothing to press); `exact` keeps every digit; a token that is no coin has no mark', () => {
    const plain = render(<Amount units={25_500_000n} decimals={6} currency="USDT" lang="en" testId="p" />);
    expect(plain.queryByRole('button')).toBeNull();
    expect(plain.getByTestId('p').textContent).toBe('25.5\u00a0USDT');
    const exact = render(<Amount units={12_345_678_901_234n} decimals={18} currency="ETH" lang="en" exact testId="e" />);
    expect(exact.getByTestId('e').textContent).toBe('0.000012345678901234\u00a0ETH');
    const token = render(<Amount units={10n ** 21n} decimals={18} currency="IPT" lang="en" testId="t" />);
    expect(token.getByTestId('t').querySelector('svg')).toBeNull();
    expect(token.getByTestId('t').textContent).toBe('1,000\u00a0IPT');
  });

  it('puts an amount into its sentence', () => {
    const { container } = render(
      <p>
        <WithAmount text={`In this pool: ${AMOUNT_SLOT}.`} amount={<Amount units={10n ** 15n} decimals={18} currency="ETH" lang="en" />} />
      </p>,
    );
    expect(container.textContent).toBe('In this pool: 0.001\u00a0ETH.');
  });
});
