/** @jest-environment jsdom */
import { render, within } from '@testing-library/react';
import { DataTable, type DataColumn } from './DataTable';

type Coin = { code: string; name: string; held: string };
const columns: DataColumn<Coin>[] = [
  { key: 'code', header: 'Code', cell: (c) => c.code },
  { key: 'name', header: 'Name', cell: (c) => c.name, className: 'mono', testId: 'coin-name' },
  { key: 'held', header: 'Held', cell: (c) => c.held, numeric: true },
];
const rows: Coin[] = [
  { code: 'ETH', name: 'Ether', held: '1.5' },
  { code: 'USDT', name: 'Tether', held: '20' },
];

describe('DataTable', () => {
  it('draws the headings, one row per item with a row heading, and labels every cell with its heading', () => {
    const { getByRole } = render(
      <DataTable caption="Coins" columns={columns} rows={rows} rowKey={(c) => c.code} rowAttrs={(c) => ({ 'data-testid': 'coin', 'data-code': c.code, className: c.code === 'ETH' ? 'hot' : undefined })} empty={<p>None</p>} />,
    );
    const region = getByRole('region', { name: 'Coins' });
    expect(region.getAttribute('tabindex')).toBe('0');
    const table = within(region).getByRole('table');
    expect(table.className).toBe('data-table data-table--cards');
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Code', 'Name', 'Held']);

    const body = table.querySelectorAll('tbody tr');
    expect(body).toHaveLength(rows.length);
    body.forEach((tr, i) => {
      expect(tr.getAttribute('data-testid')).toBe('coin');
      expect(tr.getAttribute('data-code')).toBe(rows[i]!.code);
      expect(within(tr as HTMLElement).getByRole('rowheader').textContent).toBe(rows[i]!.code);
      const cells = [...tr.children];
      expect(cells.map((c) => c.textContent)).toEqual([rows[i]!.code, rows[i]!.name, rows[i]!.held]);
      expect(cells.map((c) => c.getAttribute('data-label'))).toEqual(['Code', 'Name', 'Held']);
      expect(cells.map((c) => c.getAttribute('data-testid'))).toEqual([null, 'coin-name', null]);
    });
    expect(body[0]!.className).toBe('hot');
    expect(body[1]!.hasAttribute('class')).toBe(false);
  });

  it('marks a numeric column with "num" in its heading and cells, and adds a column\'s own class to its cells only', () => {
    const { container } = render(<DataTable caption="Coins" columns={columns} rows={rows} rowKey={(c) => c.code} />);
    const heads = [...container.querySelectorAll('thead th')];
    expect(heads.map((h) => h.className)).toEqual(['', '', 'num']);
    for (const tr of container.querySelectorAll('tbody tr')) {
      expect([...tr.children].map((c) => c.className)).toEqual(['', 'mono', 'num']);
    }
  });

  it('shows the empty state instead of the table when there are no rows', () => {
    const { queryByRole, getByText } = render(<DataTable caption="Coins" columns={columns} rows={[]} rowKey={(c) => c.code} empty={<p>Nothing held</p>} />);
    expect(getByText('Nothing held')).toBeTruthy();
    expect(queryByRole('table')).toBeNull();
    expect(queryByRole('region')).toBeNull();
  });

  it('draws an empty table, named by a heading, when no empty state is given', () => {
    const { getByRole } = render(
      <>
        <h2 id="coins-title">Coins held</h2>
        <DataTable captionId="coins-title" columns={columns} rows={[]} rowKey={(c) => c.code} />
      </>,
    );
    const table = within(getByRole('region', { name: 'Coins held' })).getByRole('table');
    expect(table.querySelectorAll('tbody tr')).toHaveLength(0);
    expect(within(table).getAllByRole('columnheader')).toHaveLength(columns.length);
  });
});
