// What the operator's commands share: the transport they send through, the printer, refusals and tables.
export type Transport = (method: 'GET' | 'POST', url: string, body?: unknown) => Promise<{ status: number; body: unknown }>;
export type Output = (line: string) => void;

/** A refused command: the message says what is wrong. */
export class UsageError extends Error {}

/** A table of rows, columns padded; numbers right-aligned. */
export function table(rows: Record<string, unknown>[], columns?: string[]): string {
  if (!rows.length) return '(none)';
  const cols = columns ?? Object.keys(rows[0]!);
  const cells = rows.map((r) => cols.map((c) => (r[c] === null || r[c] === undefined ? '' : String(r[c]))));
  const width = cols.map((c, i) => Math.max(c.length, ...cells.map((row) => row[i]!.length)));
  const numeric = cols.map((_, i) => cells.every((row) => /^-?\d*$/.test(row[i]!)));
  const line = (vals: string[]) => vals.map((v, i) => (numeric[i] ? v.padStart(width[i]!) : v.padEnd(width[i]!))).join('  ');
  return [line(cols), line(width.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}
