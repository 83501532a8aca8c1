import type { SessionUser } from '@app/contracts';

/** Spec §3: the display name falls back to the e-mail (the login). */
export function displayName(user: Pick<SessionUser, 'name' | 'login'>): string {
  return user.name?.trim() || user.login;
}
