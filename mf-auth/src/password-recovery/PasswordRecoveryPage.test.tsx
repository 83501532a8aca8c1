/** @jest-environment jsdom */
import { act, screen, waitFor } from '@testing-library/react';
import { deferred, renderPage, shellApiError } from '../testing/renderPage';
import { click, describedError, isDisabled, type } from '../testing/fields';
import { PasswordRecoveryPage } from './PasswordRecoveryPage';

describe('password recovery', () => {
  it('mails the instructions, then changes the password with the code and goes to sign-in', async () => {
    const page = renderPage(<PasswordRecoveryPage />, {
      path: '/password-recovery',
      api: {
        sendPasswordRecovery: async () => ({ message: 'Instructions for changing your password have been successfully sent to your email!' }),
        changePasswordByCode: async () => ({ message: 'Password changed successfully' }),
      },
    });
    type(screen.getByLabelText('E-mail'), 'ann@example.com');
    await click(screen.getByRole('button', { name: 'Send instructions' }));
    expect(page.notifications()).toEqual([
      { kind: 'success', title: 'Success', message: 'Instructions for changing your password have been successfully sent to your email!' },
    ]);

    // Step 2 keeps the e-mail and starts at the code.
    const code = screen.getByLabelText('Code from the e-mail');
    expect(document.activeElement).toBe(code);
    expect((screen.getByLabelText('E-mail') as HTMLInputElement).value).toBe('ann@example.com');
    type(code, '123456');
    type(screen.getByLabelText('New password'), 'Better#2');
    type(screen.getByLabelText('Repeat the password'), 'Better#2');
    await click(screen.getByRole('button', { name: 'Change password' }));
    await waitFor(() => expect(page.location()).toBe('/sign-in'));
    expect(page.notifications()[1]).toEqual({ kind: 'success', title: 'Success', message: 'Password changed successfully' });
    expect(page.calls.map((c) => c.request)).toEqual([
      { body: { login: 'ann@example.com', lang: 'en' } },
      { body: { login: 'ann@example.com', code: '123456', password: 'Better#2' } },
    ]);
  });

  it.each([
    ['en', "It's required field!", 'Please check your password', 'Passwords do not match', 'Please check your email'],
    ['ru', 'Обязательное поле!', 'Пожалуйста, проверьте пароль', 'Пароли не совпадают', 'Пожалуйста, проверьте e-mail'],
  ] as const)('checks the new password and its repeat (%s)', async (lang, required, badPassword, mismatch, badEmail) => {
    const ruLabels = lang === 'ru';
    renderPage(<PasswordRecoveryPage />, { path: '/password-recovery', lang });
    await click(screen.getByRole('button', { name: ruLabels ? 'Отправить инструкции' : 'Send instructions' }));
    expect(describedError(screen.getByLabelText('E-mail'))).toBe(required);
    type(screen.getByLabelText('E-mail'), 'ann@');
    await click(screen.getByRole('button', { name: ruLabels ? 'Отправить инструкции' : 'Send instructions' }));
    expect(describedError(screen.getByLabelText('E-mail'))).toBe(badEmail);

    await click(screen.getByRole('button', { name: ruLabels ? 'У меня уже есть код' : 'I already have a code' }));
    const change = screen.getByRole('button', { name: ruLabels ? 'Сменить пароль' : 'Change password' });
    await click(change);
    expect(describedError(screen.getByLabelText(ruLabels ? 'Код из письма' : 'Code from the e-mail'))).toBe(required);
    expect(describedError(screen.getByLabelText(ruLabels ? 'Новый пароль' : 'New password'))).toBe(required);
    type(screen.getByLabelText(ruLabels ? 'Новый пароль' : 'New password'), 'weak');
    type(screen.getByLabelText(ruLabels ? 'Повторите пароль' : 'Repeat the password'), 'weaker');
    await click(change);
    expect(describedError(screen.getByLabelText(ruLabels ? 'Новый пароль' : 'New password'))).toBe(badPassword);
    expect(describedError(screen.getByLabelText(ruLabels ? 'Повторите пароль' : 'Repeat the password'))).toBe(mismatch);
  });

  it('shows a wrong code beside the code field, the server’s message, and clears the busy flag', async () => {
    const answer = deferred<never>();
    const page = renderPage(<PasswordRecoveryPage />, { path: '/password-recovery', lang: 'ru', api: { changePasswordByCode: () => answer.promise } });
    type(screen.getByLabelText('E-mail'), 'ann@example.com');
    await click(screen.getByRole('button', { name: 'У меня уже есть код' }));
    type(screen.getByLabelText('Код из письма'), '000000');
    type(screen.getByLabelText('Новый пароль'), 'Better#2');
    type(screen.getByLabelText('Повторите пароль'), 'Better#2');
    await click(screen.getByRole('button', { name: 'Сменить пароль' }));
    expect(isDisabled(screen.getByRole('button', { name: 'Меняем…' }))).toBe(true);

    await act(async () => answer.reject(shellApiError(400, 'Код неверен или истёк', { code: 'Код неверен или истёк' })));
    expect(isDisabled(screen.getByRole('button', { name: 'Сменить пароль' }))).toBe(false);
    expect(describedError(screen.getByLabelText('Код из письма'))).toBe('Код неверен или истёк');
    expect(document.activeElement).toBe(screen.getByLabelText('Код из письма'));
    expect(page.notifications()).toEqual([{ kind: 'error', title: 'Ошибка', message: 'Код неверен или истёк' }]);
    expect(page.location()).toBe('/ru/password-recovery');
  });

  it('clears the busy flag when mailing fails', async () => {
    const page = renderPage(<PasswordRecoveryPage />, {
      path: '/password-recovery',
      api: { sendPasswordRecovery: () => Promise.reject(shellApiError(429, 'Too many requests. Please try again later.')) },
    });
    type(screen.getByLabelText('E-mail'), 'ann@example.com');
    await click(screen.getByRole('button', { name: 'Send instructions' }));
    expect(page.notifications()).toEqual([{ kind: 'error', title: 'Error', message: 'Too many requests. Please try again later.' }]);
    expect(isDisabled(screen.getByRole('button', { name: 'Send instructions' }))).toBe(false);
  });
});
