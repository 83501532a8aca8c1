import { randomBytes } from 'node:crypto';
import { expect, type APIRequestContext } from '@playwright/test';
import { mailInboxURL } from '../stack.config';

export const PASSWORD = 'Secret#123';

export function uniqueEmail(tag = 'user'): string {
  return `${tag}-${randomBytes(5).toString('hex')}@example.com`;
}

type CaughtMail = { to: { address: string }[]; subject: string; text?: string; headers?: Record<string, string>; time: string };

/**
 * The newest code mailed to an address, read from the mail catcher's inbox (MailDev's REST API),
 * once at least `count` such mails have arrived (a resent code replaces the first: wait for it).
 */
export async function mailedCode(request: APIRequestContext, to: string, kind?: string, count = 1): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(async () => {
      const res = await request.get(`${mailInboxURL}/api/email`);
      const mails = ((await res.json()) as CaughtMail[])
        .filter((m) => m.to.some((a) => a.address.toLowerCase() === to.toLowerCase()))
        .filter((m) => !kind || m.headers?.['x-mail-kind'] === kind)
        // The inbox lists mails in arrival order: newest last.
        .reverse();
      code = mails.length >= count ? /\b(\d{6})\b/.exec(mails[0]?.text ?? '')?.[1] : undefined;
      return code;
    })
    .toBeTruthy();
  return code!;
}

/** The one mail of a kind sent to an address (MailDev's REST API), once it has arrived. */
export async function mailOfKind(request: APIRequestContext, to: string, kind: string): Promise<CaughtMail> {
  let found: CaughtMail[] = [];
  await expect
    .poll(async () => {
      const mails = (await (await request.get(`${mailInboxURL}/api/email`)).json()) as CaughtMail[];
      found = mails.filter((m) => m.to.some((a) => a.address.toLowerCase() === to.toLowerCase()) && m.headers?.['x-mail-kind'] === kind);
      return found.length;
    }, { timeout: 30_000 })
    .toBeGreaterThan(0);
  // One event, one mail: however often the job ran.
  expect(found).toHaveLength(1);
  return found[0]!;
}

/**
 * A fully registered account, made through the real API. When `request` is a page's or a
 * context's request, the refresh cookie lands in that browser context: the page is signed in.
 */
export async function signedUpAndConfirmed(request: APIRequestContext, login = uniqueEmail()): Promise<{ login: string; password: string }> {
  const registered = await request.post('/api/v1/register', { data: { login, password: PASSWORD } });
  expect(registered.status(), await registered.text()).toBe(200);
  const code = await mailedCode(request, login);
  const confirmed = await request.post('/api/v1/confirm-login', { data: { login, code } });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  return { login, password: PASSWORD };
}

/** A referrer's invite code, as the referral page would show it. */
export async function inviteCodeOf(request: APIRequestContext, token: string): Promise<string> {
  const res = await request.get('/api/v1/referrals', { headers: { Authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { referralId?: string; referralCode?: string };
  return String(body.referralId ?? body.referralCode);
}
