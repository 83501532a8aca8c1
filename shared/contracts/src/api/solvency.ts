import * as z from 'zod/mini';
import * as M from './message-texts';
import { baseUnitsSchema, isoDateTime } from './common';

// Proof of solvency (docs/proof-of-solvency.md). The shapes here are the format's; the browser
// checks the bytes with @app/solvency, these schemas only the shape.

const hash32 = z.string().check(z.regex(/^0x[0-9a-f]{64}$/));
const address = z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/));

/** The signed header: these keys, in this order (canonical JSON is written from them). */
export const solvencyHeaderSchema = z
  .object({
    version: z.literal('pol-v1'),
    snapshotId: z.int().check(z.positive()),
    takenAt: isoDateTime,
    chainId: z.literal(1),
    blockNumber: z.int().check(z.nonnegative()),
    blockHash: hash32,
    currencies: z.array(z.string()),
    decimals: z.array(z.int()),
    root: hash32,
    sums: z.array(baseUnitsSchema),
    leafCount: z.int().check(z.positive()),
  })
  .register(z.globalRegistry, { id: 'SolvencyHeader' });
export type SolvencyHeader = z.infer<typeof solvencyHeaderSchema>;

/**
 * pool: a pool's deposit address (swept to cold); float: the address withdrawals are paid from;
 * cold: where deposits are swept (its key is offline); treasury: the yield address.
 */
export const declaredRoleSchema = z.enum(['pool', 'float', 'cold', 'treasury']);
export type DeclaredRole = z.infer<typeof declaredRoleSchema>;

/** An address the operator declares, with its message signed by that address (EIP-191). */
export const declaredAddressSchema = z.object({
  address,
  role: declaredRoleSchema,
  /** The pools whose deposit address it is (comma-separated); null for the other roles. */
  pool: z.nullable(z.string()),
  message: z.string(),
  /**
   * null: the address awaits its proof of control (the cold address, whose key is offline, until
   * an operator submits the message signed by it); its balances are not counted until then.
   */
  signature: z.nullable(z.string()),
});
export type DeclaredAddress = z.infer<typeof declaredAddressSchema>;

export const solvencySnapshotSchema = z
  .object({
    header: solvencyHeaderSchema,
    signature: z.string(),
    signer: address,
    addresses: z.array(declaredAddressSchema),
    /**
     * Base units held on chain at the header's block, per declared address that has proven
     * control and currency, with the address's role (and pools) to group them by.
     */
    reserves: z.array(z.object({ address, role: declaredRoleSchema, pool: z.nullable(z.string()), currency: z.string(), balance: baseUnitsSchema })),
  })
  .register(z.globalRegistry, { id: 'SolvencySnapshot' });
export type SolvencySnapshot = z.infer<typeof solvencySnapshotSchema>;

export const solvencyListResponseSchema = z
  .object({ signer: z.nullable(address), items: z.array(solvencySnapshotSchema) })
  .register(z.globalRegistry, { id: 'SolvencyList' });
export type SolvencyListResponse = z.infer<typeof solvencyListResponseSchema>;

export const solvencySignerResponseSchema = z.object({ address }).register(z.globalRegistry, { id: 'SolvencySigner' });

export const solvencyIdParamsSchema = z.object({
  id: z.coerce.number({ error: M.invalidValue }).check(z.int(M.invalidValue), z.positive(M.invalidValue), z.lte(Number.MAX_SAFE_INTEGER, M.invalidValue)),
});
export const solvencyProofQuerySchema = z.object({
  snapshot: z.optional(z.coerce.number({ error: M.invalidValue }).check(z.int(M.invalidValue), z.positive(M.invalidValue), z.lte(Number.MAX_SAFE_INTEGER, M.invalidValue))),
});

const pathStep = z.object({ hash: hash32, sums: z.array(baseUnitsSchema), side: z.enum(['left', 'right']) });
export const solvencyProofSchema = z
  .object({
    header: solvencyHeaderSchema,
    signature: z.string(),
    userId: z.string(),
    nonce: hash32,
    parts: z.array(z.object({ part: z.int(), sums: z.array(baseUnitsSchema), leafIndex: z.int(), path: z.array(pathStep) })),
  })
  .register(z.globalRegistry, { id: 'SolvencyProof' });
export type SolvencyProof = z.infer<typeof solvencyProofSchema>;

/** The account's nonce for life, and the snapshots its balances are in (newest first). */
export const solvencyMineResponseSchema = z
  .object({ nonce: hash32, snapshots: z.array(z.object({ snapshotId: z.int(), blockNumber: z.int(), takenAt: isoDateTime })) })
  .register(z.globalRegistry, { id: 'SolvencyMine' });
export type SolvencyMineResponse = z.infer<typeof solvencyMineResponseSchema>;
