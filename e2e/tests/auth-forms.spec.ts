import { expect, test, type Locator, type Page } from '@playwright/test';
import { PASSWORD, inviteCodeOf, mailedCode, signedUpAndConfirmed, uniqueEmail } from '../support/accounts';
import { remoteText, shellText, type Locale } from '../support/routes';
import { seriousViolations } from '../support/axe';
import { tabTo } from '../support/page';
import { TestWallet } from '../support/testWallet';

// The mf-auth screens against the real API: every validation message of spec §5 on its field,
// the failures of spec §8, and each flow end to end, in English and under /ru in Russian.

/** The remote's own labels: the tests find fields as a person would, by what their translators wrote. */
const label = (locale: Locale, key: string) => remoteText('mf-auth', locale, key);

/** The spec's messages (§5, §8), written out: the tests check the exact words. */
const messages = {
  en: {
    required: "It's required field!",
    email: 'Please check your email',
    maxLength: (max: number) => `Max length is ${max}!`,
    password: 'Please check your password',
    mismatch: 'Passwords do not match',
    invalidLogin: 'Invalid password or login',
    incorrectLogin: 'Incorrect login',
    loginRequired: 'Please login to access this page!',
    recoverySent: 'Instructions for changing your password have been successfully sent to your email!',
    passwordChanged: 'Password changed successfully',
    approveSent: 'Email for approve your account has been sent!',
    invalidCode: 'The code is invalid or has expired',
    invalidInvite: 'The invite code is not valid',
    error: 'Error',
  },
  ru: {
    required: 'Обязательное поле!',
    email: 'Пожалуйста, проверьте e-mail',
    maxLength: (max: number) => `Максимальная длина ${max}!`,
    password: 'Пожалуйста, проверьте пароль',
    mismatch: 'Пароли не совпадают',
    invalidLogin: 'Неверный пароль или логин',
    incorrectLogin: 'Некорректный логин',
    loginRequired: 'Пожалуйста, войдите, чтобы открыть эту страницу!',
    recoverySent: 'Инструкции по смене пароля отправлены на ваш e-mail!',
    passwordChanged: 'Пароль успешно изменён',
    approveSent: 'Письмо для подтверждения аккаунта отправлено!',
    invalidCode: 'Код неверен или истёк',
    invalidInvite: 'Код приглашения недействителен',
    error: 'Ошибка',
  },
} as const;

/** The cabinet header's greeting (the shell's words), with the name it falls back to: the e-mail. */
const greeting = (locale: Locale, name: string) => shellText(locale, 'header.greeting').replace('{{name}}', name);

const prefix = (locale: Locale) => (locale === 'ru' ? '/ru' : '');
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const field = (page: Page, locale: Locale, key: string): Locator => page.getByLabel(label(locale, key), { exact: true });
const button = (page: Page, locale: Locale, key: string): Locator => page.getByRole('button', { name: label(locale, key), exact: true });

/** The message is beside the field and is what a screen reader reads with it. */
async function expectFieldError(target: Locator, message: string) {
  await expect(target).toHaveAttribute('aria-invalid', 'true');
  await expect(target).toHaveAccessibleDescription(new RegExp(`${escapeRe(message)}$`));
}

async function expectFieldValid(target: Locator) {
  await expect(target).not.toHaveAttribute('aria-invalid', 'true');
}

/** A notification of the shell (its region top-center, between the header and the page), with its title. */
async function expectNotification(page: Page, title: string, message: string) {
  const item = page
    .getByRole('region', { name: /Notifications|Уведомления/ })
    // Each notice is a list item whose role is alert (error, warning) or status.
    .locator('li')
    .filter({ has: page.getByText(message, { exact: true }) });
  await expect(item.first()).toBeVisible();
  await expect(item.first().locator('.notification__title')).toHaveText(title);
}

for (const locale of ['en', 'ru'] as const) {
  const m = messages[locale];
  const at = (path: string) => `${prefix(locale)}${path}`;

  test.describe(`auth forms (${locale})`, () => {
    test('sign-up shows every validation message of spec §5 on its field', async ({ page }) => {
      await page.goto(at('/sign-up'));
      const email = field(page, locale, 'form.email');
      const password = field(page, locale, 'form.password');
      const repeat = field(page, locale, 'form.passwordRepeat');
      const agree = field(page, locale, 'signUp.agree');
      const submit = button(page, locale, 'signUp.submit');

      await submit.click();
      for (const target of [email, password, repeat, agree]) await expectFieldError(target, m.required);
      // The first wrong field takes the focus.
      await expect(email).toBeFocused();

      await email.fill('ann@example');
      await password.fill('lowercase#only1');
      await repeat.fill('Other#123');
      await submit.click();
      await expectFieldError(email, m.email);
      await expectFieldError(password, m.password);
      await expectFieldError(repeat, m.mismatch);

      await email.fill(`${'a'.repeat(250)}@example.com`);
      await password.fill('Aa#' + 'b'.repeat(18));
      await submit.click();
      await expectFieldError(email, m.maxLength(254));
      await expectFieldError(password, m.maxLength(20));

      // With every message showing, the form is still accessible in both themes.
      for (const theme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: theme });
        await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
        expect(await seriousViolations(page), theme).toEqual([]);
      }

      // Put right, each message goes as the field is corrected.
      await email.fill(uniqueEmail('valid'));
      await password.fill(PASSWORD);
      await repeat.fill(PASSWORD);
      await agree.check();
      for (const target of [email, password, repeat, agree]) await expectFieldValid(target);
    });

    test('sign-in: the required and e-mail messages on their fields, and a wrong password’s message', async ({ page, request }) => {
      const { login } = await signedUpAndConfirmed(request);
      await page.goto(at('/sign-in'));
      const email = field(page, locale, 'form.email');
      const password = field(page, locale, 'form.password');
      const submit = button(page, locale, 'signIn.submit');

      await submit.click();
      await expectFieldError(email, m.required);
      await expectFieldError(password, m.required);
      await email.fill('not-an-email');
      await email.blur();
      await expectFieldError(email, m.email);

      await email.fill(login);
      await password.fill('Wrong#pass1');
      await submit.click();
      await expectNotification(page, m.error, m.invalidLogin);
      // The busy flag is gone once the answer came.
      await expect(submit).toBeEnabled();
      await expect(page).toHaveURL(at('/sign-in'));

      await password.fill(PASSWORD);
      await submit.click();
      await expect(page).toHaveURL(at('/cabinet/dashboard'));
      await expect(page.getByText(greeting(locale, login)).first()).toBeVisible();
    });

    test('signing in works from the keyboard alone', async ({ page, request }) => {
      const { login } = await signedUpAndConfirmed(request);
      await page.goto(at('/sign-in'));
      const email = field(page, locale, 'form.email');
      await tabTo(page, email);
      await page.keyboard.type(login);
      await page.keyboard.press('Tab');
      await expect(field(page, locale, 'form.password')).toBeFocused();
      await page.keyboard.type(PASSWORD);
      await page.keyboard.press('Tab');
      await expect(button(page, locale, 'signIn.submit')).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(at('/cabinet/dashboard'));
    });

    test('a cabinet page sends a visitor to sign in, which says why', async ({ page }) => {
      await page.goto(at('/cabinet/dashboard'));
      await expect(page).toHaveURL(`${at('/sign-in')}?error=auth`);
      await expect(page.getByRole('main').getByRole('alert')).toHaveText(m.loginRequired);
    });

    test('sign up, read the code from the outbox, confirm: the dashboard greets the e-mail', async ({ page }) => {
      const login = uniqueEmail(`signup-${locale}`);
      await page.goto(at('/sign-up'));
      await field(page, locale, 'form.email').fill(login);
      await field(page, locale, 'form.password').fill(PASSWORD);
      await field(page, locale, 'form.passwordRepeat').fill(PASSWORD);
      await field(page, locale, 'signUp.agree').check();
      await button(page, locale, 'signUp.submit').click();

      await expect(page).toHaveURL(at('/registration-confirm'));
      await expectNotification(page, label(locale, 'form.successTitle'), label(locale, 'signUp.success'));
      await expect(field(page, locale, 'confirm.account')).toHaveValue(login);

      // The e-mail can be sent again.
      await button(page, locale, 'confirm.resend').click();
      await expectNotification(page, label(locale, 'form.successTitle'), m.approveSent);

      // A wrong code is said beside the field and in an Error notification.
      const code = field(page, locale, 'form.code');
      await code.fill('000000');
      await button(page, locale, 'confirm.submit').click();
      await expectFieldError(code, m.invalidCode);
      await expectNotification(page, m.error, m.invalidCode);

      // The resent e-mail's code: the first one no longer works.
      await code.fill(await mailedCode(page.request, login, 'approve', 2));
      await button(page, locale, 'confirm.submit').click();
      await expect(page).toHaveURL(at('/cabinet/dashboard'));
      await expect(page.getByText(greeting(locale, login)).first()).toBeVisible();
    });

    test('signing up with a taken e-mail says so beside the field', async ({ page, request }) => {
      const { login } = await signedUpAndConfirmed(request);
      await page.goto(at('/sign-up'));
      await field(page, locale, 'form.email').fill(login);
      await field(page, locale, 'form.password').fill(PASSWORD);
      await field(page, locale, 'form.passwordRepeat').fill(PASSWORD);
      await field(page, locale, 'signUp.agree').check();
      await button(page, locale, 'signUp.submit').click();
      await expectFieldError(field(page, locale, 'form.email'), m.incorrectLogin);
      await expectNotification(page, m.error, m.incorrectLogin);
      await expect(button(page, locale, 'signUp.submit')).toBeEnabled();
    });

    test('password recovery end to end: request, code from the outbox, new password, sign in with it', async ({ page, request }) => {
      const { login } = await signedUpAndConfirmed(request);
      const newPassword = 'Changed#456';
      await page.goto(at('/password-recovery'));
      await button(page, locale, 'recovery.send').click();
      await expectFieldError(field(page, locale, 'form.email'), m.required);
      await field(page, locale, 'form.email').fill(login);
      await button(page, locale, 'recovery.send').click();
      await expectNotification(page, label(locale, 'form.successTitle'), m.recoverySent);

      const change = button(page, locale, 'recovery.change');
      const password = field(page, locale, 'form.newPassword');
      const repeat = field(page, locale, 'form.passwordRepeat');
      await change.click();
      await expectFieldError(field(page, locale, 'form.code'), m.required);
      await password.fill('short');
      await repeat.fill('shorter');
      await change.click();
      await expectFieldError(password, m.password);
      await expectFieldError(repeat, m.mismatch);

      await field(page, locale, 'form.code').fill(await mailedCode(page.request, login, 'recovery'));
      await password.fill(newPassword);
      await repeat.fill(newPassword);
      await change.click();
      await expectNotification(page, label(locale, 'form.successTitle'), m.passwordChanged);
      await expect(page).toHaveURL(at('/sign-in'));

      await field(page, locale, 'form.email').fill(login);
      await field(page, locale, 'form.password').fill(newPassword);
      await button(page, locale, 'signIn.submit').click();
      await expect(page).toHaveURL(at('/cabinet/dashboard'));
    });

    test('a referral link: the invite is shown and checked before submit; an unknown one is refused beside it and nothing is sent', async ({ page }) => {
      const registers: string[] = [];
      page.on('request', (r) => r.url().endsWith('/api/v1/register') && registers.push(r.url()));
      await page.goto(at('/sign-up?invite=NoSuchCode'));
      const invite = field(page, locale, 'signUp.invite');
      await expect(invite).toHaveValue('NoSuchCode');
      await expectFieldError(invite, m.invalidInvite);
      await field(page, locale, 'form.email').fill(uniqueEmail('invited'));
      await field(page, locale, 'form.password').fill(PASSWORD);
      await field(page, locale, 'form.passwordRepeat').fill(PASSWORD);
      await field(page, locale, 'signUp.agree').check();
      await button(page, locale, 'signUp.submit').click();
      await expect(invite).toBeFocused();
      await expectFieldError(invite, m.invalidInvite);
      await expect(page).toHaveURL(at('/sign-up?invite=NoSuchCode'));
      expect(registers).toEqual([]);
    });
  });
}

test('a referral sign-up with the wallet: agreement first, then SIWE makes the account with the invite', async ({ page, request }) => {
  // The referrer, and the code their referral page shows.
  const referrer = await signedUpAndConfirmed(request);
  const login = await request.post('/api/v1/login', { data: referrer });
  const { token } = (await login.json()) as { token: string };
  const code = await inviteCodeOf(request, token);

  const wallet = TestWallet.random(page);
  await wallet.install();
  await page.goto(`/sign-up?invite=${encodeURIComponent(code)}`);
  await expect(field(page, 'en', 'signUp.invite')).toHaveValue(code);
  await button(page, 'en', 'signUp.withWallet').click();
  await expectFieldError(field(page, 'en', 'signUp.agree'), messages.en.required);
  expect(wallet.calls).not.toContain('personal_sign');

  await field(page, 'en', 'signUp.agree').check();
  await button(page, 'en', 'signUp.withWallet').click();
  await expect(page).toHaveURL('/cabinet/dashboard');
  expect(wallet.calls).toContain('personal_sign');
});
