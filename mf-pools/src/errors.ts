// Errors from the wallet and the API client cross the remote boundary as the shell's objects:
// recognise them by shape, never with instanceof (their classes are the shell bundle's).

export { isUserRejection } from '@app/web3';
export { isApiError } from '@app/contracts';

/** What to tell a person about a failure: ethers' short message over its long one, else the message. */
export function errorMessage(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const { shortMessage, message } = error as { shortMessage?: unknown; message?: unknown };
    if (typeof shortMessage === 'string' && shortMessage) return shortMessage;
    if (typeof message === 'string' && message) return message;
  }
  return typeof error === 'string' ? error : '';
}

/**
 * A wallet's or node's failure as one of the product's messages (the i18n key under `deposit.`): the
 * raw text, in the node's words and in English, never reaches the user. Codes per EIP-1193 and
 * ethers (`INSUFFICIENT_FUNDS`, `NONCE_EXPIRED`, `REPLACEMENT_UNDERPRICED`), else the words nodes use.
 */
export type WalletFailure = 'rejected' | 'noGas' | 'underpriced' | 'nonce' | 'transferFailed';
export function walletFailure(error: unknown, rejected: (e: unknown) => boolean): WalletFailure {
  if (rejected(error)) return 'rejected';
  const code = typeof error === 'object' && error !== null ? String((error as { code?: unknown }).code ?? '') : '';
  const text = errorMessage(error).toLowerCase();
  if (code === 'INSUFFICIENT_FUNDS' || /insufficient funds|gas required exceeds allowance|not enough (eth|balance) for gas/.test(text)) return 'noGas';
  if (code === 'REPLACEMENT_UNDERPRICED' || /underpriced|fee too low|max fee per gas less than block base fee/.test(text)) return 'underpriced';
  if (code === 'NONCE_EXPIRED' || /nonce too (low|high)|invalid nonce|nonce has already been used/.test(text)) return 'nonce';
  return 'transferFailed';
}
