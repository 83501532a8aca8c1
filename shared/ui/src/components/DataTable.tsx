import type { ReactNode } from 'react';
import { TableScroll } from './TableScroll';

export type DataColumn<Row> = {
  key: string;
  /** The column's heading; also each cell's `data-label`, which the narrow (card) layout prints beside it. */
  header: string;
  cell: (row: Row) => ReactNode;
  /** Figures: aligned right (`num`). */
  numeric?: boolean;
  /** More classes for this column's body cells (e.g. a monospace one for addresses). */
  className?: string;
  /** A `data-testid` for this column's body cells. */
  testId?: string;
};

/** Attributes a row may carry: a class and `data-*` attributes that tests and styles select on. */
export type DataRowAttrs = { className?: string } & { [data: `data-${string}`]: string | number | boolean | undefined };

export type DataTableProps<Row> = {
  /** The scrolling region's name (TableScroll's label), or the id of a heading that names it. */
  caption?: string;
  captionId?: string;
  columns: readonly DataColumn<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string | number;
  rowAttrs?: (row: Row) => DataRowAttrs;
  /** Shown instead of the table when there are no rows; without it an empty table is drawn. */
  empty?: ReactNode;
};

const joined = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(' ') || undefined;

/**
 * A data table in its scrolling box, laid out as cards on narrow screens: the first column heads
 * each row (`th scope="row"`), and every cell carries its column's heading as `data-label`.
 */
export function DataTable<Row>({ caption, captionId, columns, rows, rowKey, rowAttrs, empty }: DataTableProps<Row>) {
  if (rows.length === 0 && empty !== undefined) return <>{empty}</>;
  return (
    <TableScroll label={caption} labelledBy={captionId}>
      <table className="data-table data-table--cards">
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.key} scope="col" className={c.numeric ? 'num' : undefined}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} {...rowAttrs?.(row)}>
              {columns.map((c, i) => {
                const props = { 'data-label': c.header, 'data-testid': c.testId, className: joined(c.numeric && 'num', c.className) };
                return i === 0 ? (
                  <th key={c.key} scope="row" {...props}>
                    {c.cell(row)}
                  </th>
                ) : (
                  <td key={c.key} {...props}>
                    {c.cell(row)}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}
