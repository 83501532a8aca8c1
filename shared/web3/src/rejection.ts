/**
 * A person declined in the wallet: EIP-1193 code 4001, or ethers' ACTION_REJECTED around it.
 * Errors cross the shell/remote boundary as plain objects, so this looks at their shape only.
 */
export function isUserRejection(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
    const { code, info, error: inner } = e as { code?: unknown; info?: { error?: unknown }; error?: unknown };
    if (code === 4001 || code === 'ACTION_REJECTED') return true;
    e = info?.error ?? inner;
  }
  return false;
}
