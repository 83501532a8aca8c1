import { customType, numeric, timestamp } from 'drizzle-orm/pg-core';

// The column types every table file uses; the index does not re-export them, so the schema is tables only.
export const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
export const created = () => ts('created_at').notNull().defaultNow();
/** Money: an integer in base units (wei, token units). numeric(78,0) holds any uint256. */
export const baseUnits = (name: string) => numeric(name, { precision: 78, scale: 0 });
/** Fiat values: exact decimals, never floats. */
export const usd = (name: string) => numeric(name, { precision: 38, scale: 8 });

export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

/** A database transaction id (xid8), as text. */
export const xid8 = customType<{ data: string }>({ dataType: () => 'xid8' });
