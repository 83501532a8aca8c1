/** @jest-environment jsdom */
import { act, screen, waitFor } from '@testing-library/react';
import { deferred, renderPage, shellApiError } from '../testing/renderPage';
import { click, describedError, isDisabled, type } from '../testing/fields';
import { SignInPage } from './SignInPage';

const user = { id: 'u1', name: null, login: 'ann@example.com', role: 'user', metaMaskAddress: null };
const auth = { user, token: 't', refreshToken: 'r' };

describe('sign-in form', () => {
  it.each([
    ['en', 'E-mail', 'Password', 'Sign in', "It's required field!", 'Please check your email'],
    ['ru', 'E-mail', 'Пароль', 'Войти', 'Обязательное поле!', 'Пожалуйста, проверьте e-mail'],
  ] as const)('shows the validation messages beside their fields (%s)', async (lang, emailLabel, passwordLabel, submitLabel, required, badEmail) => {
    const page = renderPage(<SignInPage />, { path: '/sign-in', lang });
    await click(screen.getByRole('button', { name: submitLabel }));
    expect(describedError(screen.getByLabelText(emailLabel))).toBe(required);
    expect(describedError(screen.getByLabelText(passwordLabel))).toBe(required);

    type(screen.getByLabelText(emailLabel), 'not-an-email');
    type(screen.getByLabelText(passwordLabel), 'x');
    await click(screen.getByRole('button', { name: submitLabel }));
    expect(describedError(screen.getByLabelText(emailLabel))).toBe(badEmail);
    expect(screen.getByLabelText(passwordLabel).hasAttribute('aria-invalid')).toBe(false);
    expect(page.calls).toEqual([]);
  });

  it('signs in and goes to the dashboard; the tokens are the client’s business', async () => {
    const page = renderPage(<SignInPage />, { path: '/sign-in', lang: 'ru', api: { login: async () => auth } });
    type(screen.getByLabelText('E-mail'), ' Ann@Example.com ');
    type(screen.getByLabelText('Пароль'), 'Secret#1');
    await click(screen.getByRole('button', { name: 'Войти' }));
    await waitFor(() => expect(page.location()).toBe('/ru/cabinet/dashboard'));
    expect(page.calls).toEqual([{ name: 'login', request: { body: { login: 'ann@example.com', password: 'Secret#1' } } }]);
  });

  it('sends a user without a role to the registration confirmation', async () => {
    const page = renderPage(<SignInPage />, { path: '/sign-in', api: { login: async () => ({ ...auth, user: { ...user, role: null } }) } });
    type(screen.getByLabelText('E-mail'), 'ann@example.com');
    type(screen.getByLabelText('Password'), 'Secret#1');
    await click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(page.location()).toBe('/registration-confirm'));
  });

  it('shows the server’s message in an Error notification and clears the busy flag', async () => {
    const answer = deferred<never>();
    const page = renderPage(<SignInPage />, { path: '/sign-in', api: { login: () => answer.promise } });
    type(screen.getByLabelText('E-mail'), 'ann@example.com');
    type(screen.getByLabelText('Password'), 'wrong');
    await click(screen.getByRole('button', { name: 'Sign in' }));

    const busy = screen.getByRole('button', { name: 'Signing in…' });
    expect(isDisabled(busy)).toBe(true);
    await act(async () => answer.reject(shellApiError(429, 'Too many failed attempts. Please try again later.')));

    expect(isDisabled(screen.getByRole('button', { name: 'Sign in' }))).toBe(false);
    expect(page.notifications()).toEqual([{ kind: 'error', title: 'Error', message: 'Too many failed attempts. Please try again later.' }]);
    expect(page.location()).toBe('/sign-in');
  });

  it.each([
    ['en', 'Sign in', 'Error', 'Invalid password or login'],
    ['ru', 'Войти', 'Ошибка', 'Неверный пароль или логин'],
  ] as const)('says %s "Invalid password or login" when the server did not answer', async (lang, submitLabel, title, message) => {
    const page = renderPage(<SignInPage />, { path: '/sign-in', lang, api: { login: async () => Promise.reject(shellApiError(0, 'Something went wrong. Please try again later.')) } });
    type(screen.getByLabelText('E-mail'), 'ann@example.com');
    type(screen.getByLabelText(lang === 'en' ? 'Password' : 'Пароль'), 'Secret#1');
    await click(screen.getByRole('button', { name: submitLabel }));
    await waitFor(() => expect(page.notifications()).toEqual([{ kind: 'error', title, message }]));
    expect(isDisabled(screen.getByRole('button', { name: submitLabel }))).toBe(false);
  });

  it.each([
    ['en', 'Please login to access this page!'],
    ['ru', 'Пожалуйста, войдите, чтобы открыть эту страницу!'],
  ] as const)('explains a redirect from a cabinet page (?error=auth, %s)', (lang, text) => {
    renderPage(<SignInPage />, { path: '/sign-in?error=auth', lang });
    expect(screen.getByRole('alert').textContent).toBe(text);
  });

  it('has no alert on a plain visit', () => {
    renderPage(<SignInPage />, { path: '/sign-in' });
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('asks the shell to sign in with the wallet, with the invite the visit carries', async () => {
    const page = renderPage(<SignInPage />, { path: '/sign-in?invite=Ref_123' });
    await click(screen.getByRole('button', { name: 'Sign in with wallet' }));
    expect(page.commands).toEqual([{ type: 'session/wallet-sign-in', invite: 'Ref_123' }]);
  });

  it('links to sign-up and password recovery under the locale', () => {
    renderPage(<SignInPage />, { path: '/sign-in', lang: 'ru' });
    expect(screen.getByRole('link', { name: 'Зарегистрироваться' }).getAttribute('href')).toBe('/ru/sign-up');
    expect(screen.getByRole('link', { name: 'Забыли пароль?' }).getAttribute('href')).toBe('/ru/password-recovery');
  });
});
