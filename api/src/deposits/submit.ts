import { apiMessages as M } from '@app/contracts';
import { ApiError } from '../http/errors';
import type { DepositRequest, Deposits } from './service';
import { DepositRefused } from './verify';

/**
 * Records a reported deposit and answers as the API does: a refusal becomes its error, and
 * `creditNow` says the transaction is already deep enough for the job to credit it now rather
 * than at its next tick. The pool is checked with its receiving address in the service.
 */
export async function submitDeposit(deposits: Deposits, user: { id: string }, req: DepositRequest) {
  try {
    const r = await deposits.record(user, req);
    return {
      creditNow: r.status.confirmations >= deposits.settings.confirmations,
      answer: {
        message: r.corrected ? M.depositAmountCorrected : M.depositRecorded,
        id: r.row.id,
        status: r.row.status,
        createdAt: r.row.createdAt.toISOString(),
        deposit: r.status,
      },
    };
  } catch (err) {
    if (err instanceof DepositRefused) throw new ApiError(err.status, err.message, err.code);
    throw err;
  }
}
