// The signer's own audit log: one JSON line per decision, each carrying the SHA-256 of the line
// before it, in a file only the signer writes (the API cannot reach it). A removed or edited line
// breaks the chain (`verifyLog`).
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';

export type LogEntry = { seq: number; at: string; event: string; detail: Record<string, unknown>; prev: string; hash: string };

const digest = (e: Omit<LogEntry, 'hash'>) => createHash('sha256').update(JSON.stringify([e.seq, e.at, e.event, e.detail, e.prev])).digest('hex');

export function readLog(file: string): LogEntry[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as LogEntry);
}

export function openLog(file: string, now: () => Date = () => new Date()) {
  const entries = readLog(file);
  let last = entries.at(-1) ?? null;
  return {
    entries,
    append(event: string, raw: Record<string, unknown>): LogEntry {
      // Amounts are bigints: written, and hashed, as decimal strings.
      const detail = JSON.parse(JSON.stringify(raw, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v))) as Record<string, unknown>;
      const base = { seq: (last?.seq ?? 0) + 1, at: now().toISOString(), event, detail, prev: last?.hash ?? '' };
      const entry = { ...base, hash: digest(base) };
      appendFileSync(file, `${JSON.stringify(entry)}\n`, { mode: 0o600 });
      last = entry;
      return entry;
    },
  };
}

export function verifyLog(file: string): { ok: boolean; entries: number; brokenAt: number | null } {
  const entries = readLog(file);
  let prev = { seq: 0, hash: '' };
  for (const e of entries) {
    const { hash, ...base } = e;
    if (e.seq !== prev.seq + 1 || e.prev !== prev.hash || digest(base) !== hash) return { ok: false, entries: entries.length, brokenAt: e.seq };
    prev = { seq: e.seq, hash };
  }
  return { ok: true, entries: entries.length, brokenAt: null };
}
