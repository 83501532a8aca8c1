// The settings page (mf-dao) against the real API and chain: each section end to end, every
// validation message on its field in English and Russian, axe, and 390 px.
import { Wallet } from 'ethers';
import { expect, test, type Page } from '@playwright/test';
import { PASSWORD, mailedCode, signedUpAndConfirmed, uniqueEmail } from '../support/accounts';
import { seriousViolations } from '../support/axe';
import { remoteText, type Locale } from '../support/routes';
import { TestWallet } from '../support/testWallet';

/** The remote's own words, so fields are found as a person finds them. */
const text = (locale: Locale, key: string) => remoteText('mf-dao', locale, key);

/** The spec's messages (§5), written out: the tests check the exact words. */
const messages = {
  en: {
    required: "It's required field!",
    general: 'Not all fields are filled in correctly',
    email: 'Please check your email',
    maxLength: 'Max length is 50!',
    phone: 'Please check your phone number!',
    telegram: 'Telegram must look like @myname',
    mismatch: 'Passwords do not match',
    password: 'Please check your password',
  },
  ru: {
    required: 'Обязательное поле!',
    general: 'Не все поля заполнены правильно',
    email: 'Пожалуйста, проверьте e-mail',
    maxLength: 'Максимальная длина 50!',
    phone: 'Пожалуйста, проверьте номер телефона!',
    telegram: 'Telegram должен выглядеть как @myname',
    mismatch: 'Пароли не совпадают',
    password: 'Пожалуйста, проверьте пароль',
  },
} as const;

const notifications = (page: Page) => page.getByRole('region', { name: /Notifications|Уведомления/ });
const prefix = (locale: Locale) => (locale === 'ru' ? '/ru' : '');

async function openSettings(page: Page, locale: Locale = 'en') {
  const account = await signedUpAndConfirmed(page.request);
  await page.goto(`${prefix(locale)}/cabinet/settings`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(text(locale, 'settings.title'));
  await expect(page.getByLabel(text(locale, 'settings.personal.email'))).toHaveValue(account.login);
  return account;
}

/** A PNG the browser draws itself: a 600 × 400 picture with a red left half, to crop. */
async function picture(page: Page): Promise<Buffer> {
  const dataUrl = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 600;
    canvas.height = 400;
    const ctx = canvas.getContext('2d')!;
    ctx.fillStyle = '#2040ff';
    ctx.fillRect(0, 0, 600, 400);
    ctx.fillStyle = '#ff2020';
    ctx.fillRect(0, 0, 300, 400);
    return canvas.toDataURL('image/png');
  });
  return Buffer.from(dataUrl.slice(dataUrl.indexOf(',') + 1), 'base64');
}

test.describe('personal info', () => {
  test('the greeting in the header and sidebar follows a name change at once, and after a reload', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openSettings(page);
    await page.getByLabel('Name').fill('Ada Lovelace');
    await page.getByRole('button', { name: 'Save', exact: true }).first().click();
    await expect(notifications(page).getByText('Profile updated')).toBeVisible();
    await expect(page.getByRole('banner').getByText('Ada Lovelace')).toBeVisible();
    await expect(page.getByTestId('sidebar').getByText('Ada Lovelace')).toBeVisible();
    await page.reload();
    await expect(page.getByTestId('sidebar').getByText('Ada Lovelace')).toBeVisible();
    await expect(page.getByLabel('Name')).toHaveValue('Ada Lovelace');
  });

  for (const locale of ['en', 'ru'] as const) {
    test(`every message on its field (${locale})`, async ({ page }) => {
      await openSettings(page, locale);
      const m = messages[locale];
      const field = (key: string) => page.getByLabel(text(locale, `settings.personal.${key}`));
      const save = page.getByRole('button', { name: text(locale, 'form.save'), exact: true }).first();
      await field('name').fill('n'.repeat(51));
      await field('email').fill('');
      await field('phone').fill('call me');
      await field('telegram').fill('ann');
      await save.click();
      await expect(page.getByRole('region', { name: text(locale, 'settings.personal.title') }).getByRole('alert')).toHaveText(m.general);
      await expect(field('name')).toHaveAccessibleDescription(m.maxLength);
      await expect(field('email')).toHaveAccessibleDescription(m.required);
      await expect(field('phone')).toHaveAccessibleDescription(new RegExp(`${m.phone.replace(/[!?.+()]/g, '\\$&')}$`));
      await expect(field('telegram')).toHaveAccessibleDescription(new RegExp(`${m.telegram.replace(/[!?.+()@]/g, '\\$&')}$`));
      await field('email').fill('not-an-email');
      await expect(field('email')).toHaveAccessibleDescription(m.email);
      // A number that looks like one but that no numbering plan has.
      await field('phone').fill('+1 555 000 0000');
      await expect(field('phone')).toHaveAccessibleDescription(new RegExp(`${m.phone.replace(/[!?.+()]/g, '\\$&')}$`));

      const security = (key: string) => page.getByLabel(text(locale, `settings.security.${key}`), { exact: true });
      await security('new').fill('weak');
      await security('repeat').fill('other');
      await page.getByRole('button', { name: text(locale, 'settings.security.change') }).click();
      await expect(security('current')).toHaveAccessibleDescription(m.required);
      await expect(security('new')).toHaveAccessibleDescription(new RegExp(`${m.password}$`));
      await expect(security('repeat')).toHaveAccessibleDescription(m.mismatch);
    });
  }

  test('a new e-mail applies only with the code mailed to it', async ({ page }) => {
    const { login } = await openSettings(page);
    const next = uniqueEmail('moved');
    await page.getByLabel('E-mail').fill(next);
    // A session alone is not the owner: the password (or a code to the current address) comes with it.
    await page.getByRole('button', { name: 'Save', exact: true }).first().click();
    await expect(page.getByLabel('Your password')).toHaveAccessibleDescription('Enter your password or the code from the e-mail');
    await page.getByLabel('Your password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Save', exact: true }).first().click();
    await expect(notifications(page).getByText('A code has been sent to your new e-mail. Enter it to confirm the change.')).toBeVisible();
    // Still the old login: the greeting falls back to it.
    await expect(page.getByRole('banner').getByText(login)).toBeVisible();

    const code = page.getByLabel('Code from the e-mail');
    await code.fill('000000');
    await page.getByRole('button', { name: 'Confirm the new e-mail' }).click();
    await expect(code).toHaveAccessibleDescription('The code is invalid or has expired');
    await code.fill(await mailedCode(page.request, next, 'email-change'));
    await page.getByRole('button', { name: 'Confirm the new e-mail' }).click();
    await expect(notifications(page).getByText('Your e-mail is changed')).toBeVisible();
    await expect(page.getByRole('banner').getByText(next)).toBeVisible();
    // Payouts wait for a while after the change, and the page says so.
    await expect(page.getByTestId('withdrawals-held')).toContainText('Withdrawals wait until');
    const login2 = await page.request.post('/api/v1/login', { data: { login: next, password: PASSWORD } });
    expect(login2.status()).toBe(200);
  });
});

test.describe('avatar', () => {
  test('a cropped avatar shows round in the sidebar and survives a reload; a wrong file is refused and the old one stays', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await openSettings(page);
    const file = page.getByLabel('Choose an image');
    await file.setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: await picture(page) });
    const zoom = page.getByLabel('Zoom');
    await zoom.fill('2');
    await expect(page.getByTestId('avatar-preview')).toHaveAttribute('src', /^data:image\/(webp|jpeg)/);
    await page.getByRole('button', { name: 'Save the avatar' }).click();
    await expect(notifications(page).getByText('The avatar is saved')).toBeVisible();

    const sidebarAvatar = page.getByTestId('sidebar-avatar');
    await expect(sidebarAvatar).toHaveAttribute('src', /^\/api\/v1\/avatars\/[0-9a-f-]+\?v=\d+$/);
    const src = await sidebarAvatar.getAttribute('src');
    // What the server keeps is the browser's 256 × 256 square, cropped from the zoomed middle (both colours).
    const uploaded = await page.evaluate(async (url) => {
      const img = new Image();
      img.src = url!;
      await img.decode();
      const c = document.createElement('canvas');
      c.width = img.naturalWidth;
      c.height = img.naturalHeight;
      const ctx = c.getContext('2d')!;
      ctx.drawImage(img, 0, 0);
      return { w: img.naturalWidth, h: img.naturalHeight, left: [...ctx.getImageData(10, 128, 1, 1).data], right: [...ctx.getImageData(245, 128, 1, 1).data] };
    }, src);
    expect([uploaded.w, uploaded.h]).toEqual([256, 256]);
    expect(uploaded.left[0]).toBeGreaterThan(200);
    expect(uploaded.right[2]).toBeGreaterThan(200);
    expect(await sidebarAvatar.evaluate((img) => getComputedStyle(img).borderRadius)).toBe('50%');
    const served = await page.request.get(src!);
    expect(served.headers()['cache-control']).toContain('max-age=31536000');

    await page.reload();
    await expect(page.getByTestId('sidebar-avatar')).toHaveAttribute('src', src!);
    await expect.poll(() => page.getByTestId('sidebar-avatar').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(256);

    await page.getByLabel('Choose an image').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: Buffer.from('this is not a picture') });
    await expect(page.getByLabel('Choose an image')).toHaveAccessibleDescription('Please choose a JPEG, PNG or WebP image');
    await expect(page.getByTestId('sidebar-avatar')).toHaveAttribute('src', src!);
  });
});

test.describe('wallets', () => {
  test('replacing the linked wallet needs the password (or a mailed code) and a signature by the new wallet', async ({ page }) => {
    const wallet = TestWallet.random(page);
    await wallet.install();
    const account = await openSettings(page);
    await page.getByRole('banner').getByRole('button', { name: 'Connect wallet' }).click();
    await expect(notifications(page).getByText('Metamask is successfully linked to the account!')).toBeVisible();
    const short = (a: string) => `${a.slice(0, 6)}…${a.slice(-6)}`;
    const first = wallet.address;
    await page.reload();
    await expect(page.getByTestId('settings-wallet')).toHaveText(short(first));

    await page.getByRole('button', { name: 'Replace', exact: true }).click();
    const sign = page.getByRole('button', { name: 'Pick and sign with the new wallet' });
    await sign.click();
    await expect(page.getByLabel('Password', { exact: true })).toHaveAccessibleDescription('Enter your password or the code from the e-mail');

    const next = Wallet.createRandom();
    await page.getByLabel('Password', { exact: true }).fill('Wr0ng!pass');
    wallet.pickOnNextPermissionRequest(next.privateKey);
    await sign.click();
    await expect(page.getByLabel('Password', { exact: true })).toHaveAccessibleDescription('The current password is not correct');
    await expect(page.getByTestId('settings-wallet')).toHaveText(short(first));

    // The person picked the new account in the wallet already; a mailed code is the proof this time.
    await page.getByLabel('Password', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Send me a code by e-mail instead' }).click();
    await expect(notifications(page).getByText('A code has been sent to your e-mail')).toBeVisible();
    await page.getByLabel('Code from the e-mail').fill(await mailedCode(page.request, account.login, 'owner-code'));
    await sign.click();
    await expect(notifications(page).getByText('The wallet is replaced')).toBeVisible();
    await expect(page.getByTestId('settings-wallet')).toHaveText(short(next.address));
    // Still signed in: the new wallet is the linked one now.
    // Still signed in, and the header shows the new wallet.
    await expect(page.getByRole('banner').getByTestId('linked-wallet')).toHaveAttribute('title', next.address);
    await expect(page).toHaveURL(/\/cabinet\/settings$/);
    await page.reload();
    await expect(page.getByTestId('settings-wallet')).toHaveText(short(next.address));
  });
});

test.describe('security', () => {
  test('"sign out other sessions" ends a second browser context\'s session', async ({ page, browser }) => {
    const account = await openSettings(page);
    const other = await browser.newContext();
    const otherPage = await other.newPage();
    const signedIn = await otherPage.request.post('/api/v1/login', { data: account });
    expect(signedIn.status()).toBe(200);
    await otherPage.goto('/cabinet/dashboard');
    await expect(otherPage.getByRole('banner').getByText(account.login)).toBeVisible();

    await page.reload();
    // This page's session and the second context's: confirming the e-mail ended the one sign-up started.
    await expect(page.getByTestId('session')).toHaveCount(2);
    await page.getByRole('button', { name: 'Sign out other sessions' }).click();
    await expect(notifications(page).getByText('Other sessions are signed out')).toBeVisible();
    await expect(page.getByTestId('session')).toHaveCount(1);

    await otherPage.reload();
    await expect(otherPage).toHaveURL(/\/sign-in/);
    await other.close();
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Settings');
  });

  test('a password change ends the other sessions and holds withdrawals for a while', async ({ page, browser }) => {
    const account = await openSettings(page);
    const other = await browser.newContext();
    const otherPage = await other.newPage();
    expect((await otherPage.request.post('/api/v1/login', { data: account })).status()).toBe(200);
    await page.getByLabel('Current password').fill(PASSWORD);
    await page.getByLabel('New password', { exact: true }).fill('N3w!pass');
    await page.getByLabel('Repeat the new password').fill('N3w!pass');
    await expect(page.getByText('Changing the password signs out your other sessions, and withdrawals wait for a safety period.')).toBeVisible();
    await page.getByRole('button', { name: 'Change the password' }).click();
    await expect(notifications(page).getByText('Password changed successfully')).toBeVisible();
    await expect(page.getByTestId('withdrawals-held')).toContainText('Withdrawals wait until');
    await otherPage.goto('/cabinet/dashboard');
    await expect(otherPage).toHaveURL(/\/sign-in/);
    await other.close();
  });
});

test('preferences are kept with the account and applied when signing in on another device', async ({ page, browser }) => {
  const account = await openSettings(page);
  const preferences = page.getByRole('region', { name: 'Preferences' });
  await preferences.getByLabel('Theme').selectOption('dark');
  await preferences.getByLabel('Language').selectOption('ru');
  await page.getByRole('button', { name: 'Save', exact: true }).last().click();
  await expect(page).toHaveURL(/\/ru\/cabinet\/settings/);
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');

  const device = await browser.newContext({ colorScheme: 'light' });
  const other = await device.newPage();
  await other.goto('/sign-in');
  await other.getByLabel('E-mail').fill(account.login);
  await other.getByLabel('Password').fill(account.password);
  await other.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(other).toHaveURL(/\/ru\/cabinet\/dashboard/);
  await expect(other.locator('html')).toHaveAttribute('data-theme', 'dark');
  await device.close();
});

test('at 390 px, in light and dark, nothing scrolls sideways and axe finds nothing serious', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openSettings(page);
  await page.getByLabel('Choose an image').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: await picture(page) });
  await expect(page.getByLabel('Zoom')).toBeVisible();
  await page.getByRole('button', { name: 'Save', exact: true }).first().click();
  await page.getByLabel('E-mail').fill('');
  await page.getByRole('button', { name: 'Save', exact: true }).first().click();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect(page.locator('html')).toHaveAttribute('data-theme', scheme);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, 'no sideways scrolling at 390 px').toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);
  }
});
