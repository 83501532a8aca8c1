/** @jest-environment jsdom */
import { fireEvent, render } from '@testing-library/react';
import { SelectField } from './Field';

describe('SelectField', () => {
  const options = [
    { value: '', label: 'Any' },
    { value: 'ETH', label: 'Ether' },
    { value: 'USDT', label: 'Tether' },
  ];

  it('is a labelled select of the options in order, described by its hint and error', () => {
    const { getByLabelText, getByText } = render(<SelectField id="coin" name="coin" label="Currency" options={options} defaultValue="ETH" hint="Which coin" error="Choose one" />);
    const select = getByLabelText('Currency') as HTMLSelectElement;
    expect(select.tagName).toBe('SELECT');
    expect([...select.options].map((o) => [o.value, o.textContent])).toEqual(options.map((o) => [o.value, o.label]));
    expect(select.value).toBe('ETH');
    expect(select.getAttribute('aria-describedby')).toBe('coin-hint coin-error');
    expect(select.getAttribute('aria-invalid')).toBe('true');
    expect(getByText('Choose one').id).toBe('coin-error');
    expect(select.closest('.field')!.className).toBe('field field--invalid');
  });

  it('passes the select its own attributes and changes', () => {
    const changed: string[] = [];
    const { getByLabelText } = render(<SelectField id="kind" label="Kind" options={options} value="" onChange={(e) => changed.push(e.target.value)} />);
    const select = getByLabelText('Kind') as HTMLSelectElement;
    expect(select.hasAttribute('aria-describedby')).toBe(false);
    fireEvent.change(select, { target: { value: 'USDT' } });
    expect(changed).toEqual(['USDT']);
  });
});
