// The one message the solvency key signs: a proof-of-solvency header (pol-v1), exactly as the API
// writes it (canonicalHeader of @app/solvency: these keys, in this order, no spaces). Anything else
// (an arbitrary text, a header with another key, the same header spaced or reordered) is refused,
// so the published key can never be made to vouch for something a verifier would misread.
import * as z from 'zod';
import { VERSION, canonicalHeader, type Header } from '@app/solvency';

// Linear-time patterns only: the input is whatever a compromised API sends.
const hash32 = z.string().regex(/^0x[0-9a-f]{64}$/);
const count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
/** A sum: a decimal integer below 2^256 (at most 78 digits). */
const sum = z.string().regex(/^(0|[1-9][0-9]{0,77})$/);

const headerSchema = z
  .strictObject({
    version: z.literal(VERSION),
    snapshotId: count.min(1),
    takenAt: z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/),
    chainId: count.min(1),
    blockNumber: count,
    blockHash: hash32,
    currencies: z.array(z.string().regex(/^[A-Z0-9]{1,16}$/)).max(64),
    decimals: z.array(z.number().int().min(0).max(36)).max(64),
    root: hash32,
    sums: z.array(sum).max(64),
    leafCount: count.min(1),
  })
  .refine((h) => h.decimals.length === h.currencies.length && h.sums.length === h.currencies.length, 'one decimals and one sum per currency');

/** The header the message is, or why it is not one. */
export function parseHeader(message: string): { ok: true; header: Header } | { ok: false; reason: string } {
  let json: unknown;
  try {
    json = JSON.parse(message);
  } catch {
    return { ok: false, reason: 'not a solvency header: not JSON' };
  }
  const parsed = headerSchema.safeParse(json);
  if (!parsed.success) return { ok: false, reason: `not a solvency header: ${parsed.error.issues[0]?.path.join('.') || 'shape'} ${parsed.error.issues[0]?.message ?? ''}`.trim() };
  // Byte for byte the canonical text: no other key order, spacing or number spelling.
  if (canonicalHeader(parsed.data) !== message) return { ok: false, reason: 'not a solvency header: not its canonical text' };
  return { ok: true, header: parsed.data };
}
