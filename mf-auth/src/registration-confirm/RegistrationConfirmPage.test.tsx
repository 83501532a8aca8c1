/** @jest-environment jsdom */
import { act, screen, waitFor } from '@testing-library/react';
import { deferred, renderPage, shellApiError } from '../testing/renderPage';
import { click, describedError, isDisabled, type } from '../testing/fields';
import { RegistrationConfirmPage } from './RegistrationConfirmPage';

const newUser = { id: 'u1', name: null, login: 'ann@example.com', role: null, metaMaskAddress: null };
const signedIn = { status: 'authenticated' as const, user: newUser };
const auth = { user: { ...newUser, role: 'user' }, token: 't', refreshToken: 'r' };

describe('registration confirmation', () => {
  it('confirms the signed-in account with the code and goes to the dashboard', async () => {
    const page = renderPage(<RegistrationConfirmPage />, { path: '/registration-confirm', session: signedIn, api: { confirmLogin: async () => auth } });
    expect((screen.getByLabelText('Account') as HTMLInputElement).value).toBe('ann@example.com');
    expect(screen.queryByLabelText('E-mail')).toBeNull();
    type(screen.getByLabelText('Code from the e-mail'), ' 123456 ');
    await click(screen.getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(page.location()).toBe('/cabinet/dashboard'));
    expect(page.calls).toEqual([{ name: 'confirmLogin', request: { body: { login: 'ann@example.com', code: '123456' } } }]);
  });

  it('asks a visitor who is not signed in for the e-mail too', async () => {
    const page = renderPage(<RegistrationConfirmPage />, { path: '/registration-confirm', lang: 'ru', api: { confirmLogin: async () => auth } });
    await click(screen.getByRole('button', { name: 'Подтвердить' }));
    expect(describedError(screen.getByLabelText('E-mail'))).toBe('Обязательное поле!');
    expect(describedError(screen.getByLabelText('Код из письма'))).toBe('Обязательное поле!');
    type(screen.getByLabelText('E-mail'), 'Ann@example.com');
    type(screen.getByLabelText('Код из письма'), '123456');
    await click(screen.getByRole('button', { name: 'Подтвердить' }));
    await waitFor(() => expect(page.location()).toBe('/ru/cabinet/dashboard'));
    expect(page.calls[0]?.request).toEqual({ body: { login: 'ann@example.com', code: '123456' } });
  });

  it('shows a wrong code beside the field and in an Error notification, and clears the busy flag', async () => {
    const answer = deferred<never>();
    const page = renderPage(<RegistrationConfirmPage />, { path: '/registration-confirm', session: signedIn, api: { confirmLogin: () => answer.promise } });
    type(screen.getByLabelText('Code from the e-mail'), '000000');
    await click(screen.getByRole('button', { name: 'Confirm' }));
    expect(isDisabled(screen.getByRole('button', { name: 'Confirming…' }))).toBe(true);
    await act(async () => answer.reject(shellApiError(400, 'The code is invalid or has expired', { code: 'The code is invalid or has expired' })));
    expect(isDisabled(screen.getByRole('button', { name: 'Confirm' }))).toBe(false);
    expect(describedError(screen.getByLabelText('Code from the e-mail'))).toBe('The code is invalid or has expired');
    expect(page.notifications()).toEqual([{ kind: 'error', title: 'Error', message: 'The code is invalid or has expired' }]);
  });

  it.each([
    ['en', 'Send the e-mail again', 'Email for approve your account has been sent!'],
    ['ru', 'Отправить письмо ещё раз', 'Письмо для подтверждения аккаунта отправлено!'],
  ] as const)('sends the approval e-mail again (%s)', async (lang, resend, sent) => {
    const answer = deferred<{ message: string }>();
    const page = renderPage(<RegistrationConfirmPage />, { path: '/registration-confirm', lang, session: signedIn, api: { sendApproveEmail: () => answer.promise } });
    await click(screen.getByRole('button', { name: resend }));
    expect(isDisabled(screen.getByRole('button', { name: lang === 'en' ? 'Sending…' : 'Отправляем…' }))).toBe(true);
    await act(async () => answer.resolve({ message: sent }));
    expect(page.calls).toEqual([{ name: 'sendApproveEmail', request: { body: { login: 'ann@example.com', lang } } }]);
    expect(page.notifications()).toEqual([{ kind: 'success', title: lang === 'en' ? 'Success' : 'Успешно', message: sent }]);
    expect(isDisabled(screen.getByRole('button', { name: resend }))).toBe(false);
  });

  it('needs a valid e-mail to resend when not signed in', async () => {
    const page = renderPage(<RegistrationConfirmPage />, { path: '/registration-confirm' });
    type(screen.getByLabelText('E-mail'), 'nope');
    await click(screen.getByRole('button', { name: 'Send the e-mail again' }));
    expect(describedError(screen.getByLabelText('E-mail'))).toBe('Please check your email');
    expect(page.calls).toEqual([]);
  });
});
