import { test as base, expect } from '@playwright/test';
import { baseURL } from '../stack.config';
import { signedUpAndConfirmed, uniqueEmail } from './accounts';

export interface Account {
  login: string;
  password: string;
}

export const test = base.extend<
  {
    /**
     * Signs the worker's account in for pages of `host` (default: localhost): a new session
     * whose refresh cookie the browser holds, as after a sign-in; the next page load reads it.
     */
    signIn: (host?: string) => Promise<Account>;
  },
  { account: Account }
>({
  // One fully registered account per worker (sign up, confirm by the mailed code), made through the API.
  account: [
    async ({ playwright }, provide, workerInfo) => {
      const api = await playwright.request.newContext({ baseURL });
      const account = await signedUpAndConfirmed(api, uniqueEmail(`e2e-w${workerInfo.workerIndex}`));
      await api.dispose();
      await provide(account);
    },
    { scope: 'worker' },
  ],
  signIn: async ({ context, account, playwright }, provide) => {
    const api = await playwright.request.newContext({ baseURL });
    await provide(async (host = 'localhost') => {
      const response = await api.post('/api/v1/login', { data: account });
      expect(response.status(), await response.text()).toBe(200);
      const cookie = response
        .headersArray()
        .find((h) => h.name.toLowerCase() === 'set-cookie' && h.value.startsWith('refresh_token='))?.value;
      if (!cookie) throw new Error('the API set no refresh cookie');
      const value = cookie.slice('refresh_token='.length, cookie.indexOf(';'));
      // Each host gets its own session: refresh tokens rotate, so two pages must not share one.
      await context.addCookies([
        { name: 'refresh_token', value, domain: host, path: '/api', httpOnly: true, sameSite: 'Strict' },
        // The marker the API sets beside it: the shell restores a session only when it is there.
        { name: 'signed_in', value: '1', domain: host, path: '/', sameSite: 'Strict' },
      ]);
      return account;
    });
    await api.dispose();
  },
});

export { expect };
