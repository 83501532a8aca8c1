import type { SessionUser } from '@app/contracts';

/** Spec §3: the display name falls back to the e-mail (the login). */
export function displayName(user: Pick<SessionUser, 'name' | 'login'>): string {
  return user.name?.trim() || user.login;
}

/** Spec §9: a wallet shows as its first 6 and last 6 characters. */
export function shortAddress(address: string): string {
  return address.length <= 12 ? address : `${address.slice(0, 6)}…${address.slice(-6)}`;
}
