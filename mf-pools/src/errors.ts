// Errors from the wallet and the API client cross the remote boundary as the shell's objects:
// recognise them by shape, never with instanceof (their classes are the shell bundle's).

export { isUserRejection } from '@app/web3';

export { isApiError } from '@app/ui';

/** What to tell a person about a failure: ethers' short message over its long one, else the message. */
export function errorMessage(error: unknown): string {
  if (typeof error === 'object' && error !== null) {
    const { shortMessage, message } = error as { shortMessage?: unknown; message?: unknown };
    if (typeof shortMessage === 'string' && shortMessage) return shortMessage;
    if (typeof message === 'string' && message) return message;
  }
  return typeof error === 'string' ? error : '';
}
