import type { Services } from '../services';

/**
 * Failed sign-ins are counted twice, in fixed windows: per account and address, and per account.
 * One address may fail `perAddress` times per window; the account as a whole `perAccount` times
 * (larger), and an address that is already locked out adds nothing to the account's count. So a
 * flood from one address locks out only that address, while the account still has a bound against
 * guesses spread over many addresses. Each try is taken before the password is checked, so
 * parallel attempts never exceed the caps; a success gives the tries back.
 */
export function loginLockout(s: Services) {
  const { multiplier, loginMaxFailures, loginMaxFailuresPerAccount, loginFailureWindowSeconds: window } = s.config.rateLimit;
  const perAddress = Math.max(1, Math.round(loginMaxFailures * multiplier));
  const perAccount = Math.max(perAddress, Math.round(loginMaxFailuresPerAccount * multiplier));
  const accountKey = (email: string) => `login-fail:${email}`;
  const addressKey = (email: string, ip: string) => `login-fail:${email}:${ip}`;

  return {
    /** Takes one try; undefined when this address or the account has none left in the window. */
    async take(email: string, ip: string) {
      if ((await s.counters.hit(addressKey(email, ip), window)) > perAddress) return undefined;
      if ((await s.counters.hit(accountKey(email), window)) > perAccount) return undefined;
      return {
        forgive: async () => {
          await s.counters.reset(addressKey(email, ip));
          await s.counters.reset(accountKey(email));
        },
      };
    },
    /** After a password reset by code: the account starts afresh (the per-address counts expire). */
    clear: (email: string) => s.counters.reset(accountKey(email)),
  };
}
