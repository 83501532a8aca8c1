import * as z from 'zod/mini';
import * as M from './message-texts';
import { passwordSchema, requiredString } from './common';

export const siweMessage = requiredString(4096, M.siweInvalid);
export const siweSignature = z
  .string({ error: (iss) => (iss.input === undefined || iss.input === null ? M.required : M.siweSignature) })
  .check(z.regex(/^0x[0-9a-fA-F]{130}$/, M.siweSignature));
export const codeSchema = requiredString(32, M.invalidCode);

/**
 * The owner's fresh proof for a change of the login e-mail, the password or the payout wallet
 * (including a first wallet on an account that holds money): the password, a code mailed to the
 * account's proven address (POST /settings/owner-code), or, for an account with neither, an
 * EIP-4361 message signed by its linked wallet. A session alone is not the owner.
 */
export const ownerProof = {
  password: z.optional(passwordSchema),
  code: z.optional(codeSchema),
  walletProof: z.optional(z.object({ message: siweMessage, signature: siweSignature })),
};
