/** @jest-environment jsdom */
import { act, screen, waitFor } from '@testing-library/react';
import { deferred, renderPage, shellApiError } from '../testing/renderPage';
import { click, describedError, isDisabled, type } from '../testing/fields';
import { SignUpPage } from './SignUpPage';

const auth = { user: { id: 'u1', name: null, login: 'ann@example.com', role: null, metaMaskAddress: null }, token: 't', refreshToken: 'r' };
const en = { email: 'E-mail', password: 'Password', repeat: 'Repeat the password', agree: 'I agree to the privacy policy and the terms and conditions', submit: 'Sign up' };
const ru = { email: 'E-mail', password: 'Пароль', repeat: 'Повторите пароль', agree: 'Я принимаю политику конфиденциальности и условия использования', submit: 'Зарегистрироваться' };

function fill(labels: typeof en, values: { email?: string; password?: string; repeat?: string; agree?: boolean }) {
  if (values.email !== undefined) type(screen.getByLabelText(labels.email), values.email);
  if (values.password !== undefined) type(screen.getByLabelText(labels.password), values.password);
  if (values.repeat !== undefined) type(screen.getByLabelText(labels.repeat), values.repeat);
  if (values.agree) screen.getByLabelText(labels.agree).click();
}

afterEach(() => {
  document.cookie = 'invite=; Max-Age=0; Path=/';
});

describe('sign-up form', () => {
  it.each([
    ['en', en, "It's required field!", 'Please check your email', 'Please check your password', 'Passwords do not match', 'Max length is 20!', 'Max length is 254!'],
    ['ru', ru, 'Обязательное поле!', 'Пожалуйста, проверьте e-mail', 'Пожалуйста, проверьте пароль', 'Пароли не совпадают', 'Максимальная длина 20!', 'Максимальная длина 254!'],
  ] as const)('shows every validation message on its field (%s)', async (lang, labels, required, badEmail, badPassword, mismatch, max20, max254) => {
    const page = renderPage(<SignUpPage />, { path: '/sign-up', lang });
    const submit = screen.getByRole('button', { name: labels.submit });
    await click(submit);
    expect(describedError(screen.getByLabelText(labels.email))).toBe(required);
    expect(describedError(screen.getByLabelText(labels.password))).toBe(required);
    expect(describedError(screen.getByLabelText(labels.repeat))).toBe(required);
    expect(describedError(screen.getByLabelText(labels.agree))).toBe(required);

    fill(labels, { email: 'ann@example', password: 'alllowercase1!', repeat: 'Other#12' });
    await click(submit);
    expect(describedError(screen.getByLabelText(labels.email))).toBe(badEmail);
    expect(describedError(screen.getByLabelText(labels.password))).toBe(badPassword);
    expect(describedError(screen.getByLabelText(labels.repeat))).toBe(mismatch);

    fill(labels, { email: `${'a'.repeat(250)}@example.com`, password: 'Aa#' + 'x'.repeat(18) });
    await click(submit);
    expect(describedError(screen.getByLabelText(labels.email))).toBe(max254);
    expect(describedError(screen.getByLabelText(labels.password))).toBe(max20);
    expect(page.calls).toEqual([]);
  });

  it('accepts a password of 6 to 20 characters with upper, lower and one of #?!@$%^&*-', async () => {
    renderPage(<SignUpPage />, { path: '/sign-up' });
    for (const ok of ['Abcde-', 'aB#def', 'Pass?word', 'X'.repeat(17) + 'y%z']) {
      type(screen.getByLabelText(en.password), ok);
      await click(screen.getByRole('button', { name: en.submit }));
      expect(screen.getByLabelText(en.password).hasAttribute('aria-invalid')).toBe(false);
    }
    for (const bad of ['Ab#de', 'abcdef#', 'ABCDEF#', 'Abcdef1', 'Abc def_']) {
      type(screen.getByLabelText(en.password), bad);
      await click(screen.getByRole('button', { name: en.submit }));
      expect(describedError(screen.getByLabelText(en.password))).toBe('Please check your password');
    }
  });

  it('signs up, says so, and goes to the registration confirmation', async () => {
    const page = renderPage(<SignUpPage />, { path: '/sign-up', lang: 'ru', api: { register: async () => auth } });
    fill(ru, { email: 'Ann@Example.com', password: 'Secret#1', repeat: 'Secret#1', agree: true });
    await click(screen.getByRole('button', { name: ru.submit }));
    await waitFor(() => expect(page.location()).toBe('/ru/registration-confirm'));
    expect(page.calls).toEqual([{ name: 'register', request: { body: { login: 'ann@example.com', password: 'Secret#1', lang: 'ru' } } }]);
    expect(page.notifications()).toEqual([
      { kind: 'success', title: 'Успешно', message: 'Вы зарегистрировались! Введите код из письма, чтобы подтвердить аккаунт.' },
    ]);
  });

  it('goes on to the confirmation even when the shell cannot show the notice', async () => {
    const logged = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const page = renderPage(<SignUpPage />, { path: '/sign-up', api: { register: async () => auth }, notificationsThrow: true });
    fill(en, { email: 'ann@example.com', password: 'Secret#1', repeat: 'Secret#1', agree: true });
    await click(screen.getByRole('button', { name: en.submit }));
    await waitFor(() => expect(page.location()).toBe('/registration-confirm'));
    expect(logged).toHaveBeenCalledWith('notification refused', expect.any(TypeError));
    logged.mockRestore();
  });

  it('shows the server’s field messages beside their fields, the Error notification, and clears the busy flag', async () => {
    const answer = deferred<never>();
    const page = renderPage(<SignUpPage />, { path: '/sign-up', api: { register: () => answer.promise } });
    fill(en, { email: 'ann@example.com', password: 'Secret#1', repeat: 'Secret#1', agree: true });
    await click(screen.getByRole('button', { name: en.submit }));
    expect(isDisabled(screen.getByRole('button', { name: 'Signing up…' }))).toBe(true);

    await act(async () => answer.reject(shellApiError(400, 'Incorrect login', { login: 'Incorrect login' })));
    expect(isDisabled(screen.getByRole('button', { name: en.submit }))).toBe(false);
    expect(describedError(screen.getByLabelText(en.email))).toBe('Incorrect login');
    expect(page.notifications()).toEqual([{ kind: 'error', title: 'Error', message: 'Incorrect login' }]);
  });

  it.each([
    ['en', en, 'Error', 'Incorrect login'],
    ['ru', ru, 'Ошибка', 'Некорректный логин'],
  ] as const)('says "Incorrect login" (%s) when the server did not answer', async (lang, labels, title, message) => {
    const page = renderPage(<SignUpPage />, { path: '/sign-up', lang, api: { register: () => Promise.reject(new TypeError('Failed to fetch')) } });
    fill(labels, { email: 'ann@example.com', password: 'Secret#1', repeat: 'Secret#1', agree: true });
    await click(screen.getByRole('button', { name: labels.submit }));
    await waitFor(() => expect(page.notifications()).toEqual([{ kind: 'error', title, message }]));
    expect(isDisabled(screen.getByRole('button', { name: labels.submit }))).toBe(false);
  });

  it('shows the connected wallet read-only, or offers to connect one', async () => {
    const account = '0x' + 'ab'.repeat(20);
    const first = renderPage(<SignUpPage />, { path: '/sign-up' });
    await click(screen.getByRole('button', { name: 'Connect wallet' }));
    expect(first.commands).toEqual([{ type: 'wallet/connect' }]);
    first.unmount();

    renderPage(<SignUpPage />, { path: '/sign-up', wallet: { connected: true, chainId: 1, account, balances: {} } });
    const field = screen.getByLabelText('Connected wallet address') as HTMLInputElement;
    expect(field.value).toBe(account);
    expect(field.readOnly).toBe(true);
    expect(screen.queryByRole('button', { name: 'Connect wallet' })).toBeNull();
  });

  it('opens the terms modal', async () => {
    const page = renderPage(<SignUpPage />, { path: '/sign-up' });
    await click(screen.getByRole('button', { name: 'Read the terms and conditions' }));
    expect(page.commands).toEqual([{ type: 'modal/terms' }]);
  });
});

const validInvite = async () => ({ valid: true });
const inviteCall = (code: string) => ({ name: 'referralsInvite', request: { params: { code } } });

describe('referral sign-up', () => {
  it('checks the invite from the address before the sign-up, says it is verified, and sends it with the sign-up', async () => {
    const page = renderPage(<SignUpPage />, { path: '/sign-up?invite=Ref_123', api: { referralsInvite: validInvite, register: async () => auth } });
    expect((screen.getByLabelText('Invite code') as HTMLInputElement).value).toBe('Ref_123');
    expect(await screen.findByText('The invite code is verified.')).toBeTruthy();
    fill(en, { email: 'ann@example.com', password: 'Secret#1', repeat: 'Secret#1', agree: true });
    await click(screen.getByRole('button', { name: en.submit }));
    expect(page.calls.filter((c) => c.name === 'register')).toEqual([{ name: 'register', request: { body: { login: 'ann@example.com', password: 'Secret#1', lang: 'en', invite: 'Ref_123' } } }]);
    expect(page.calls[0]).toEqual(inviteCall('Ref_123'));
  });

  it('keeps a verified invite from the address in the cookie, for a later visit', async () => {
    renderPage(<SignUpPage />, { path: '/sign-up?invite=Ref_123', api: { referralsInvite: validInvite } });
    await screen.findByText('The invite code is verified.');
    expect(document.cookie).toContain('invite=Ref_123');
  });

  it('takes the invite the shell kept in its cookie, and checks it', async () => {
    document.cookie = 'invite=FromCookie; Path=/';
    const page = renderPage(<SignUpPage />, { path: '/sign-up', api: { referralsInvite: validInvite } });
    expect((screen.getByLabelText('Invite code') as HTMLInputElement).value).toBe('FromCookie');
    await screen.findByText('The invite code is verified.');
    expect(page.calls).toContainEqual(inviteCall('FromCookie'));
  });

  it('signs up with the wallet only after the agreement and a verified code, carrying the invite', async () => {
    const page = renderPage(<SignUpPage />, { path: '/sign-up?invite=Ref_123', lang: 'ru', api: { referralsInvite: validInvite } });
    await screen.findByText('Код приглашения подтверждён.');
    await click(screen.getByRole('button', { name: 'Зарегистрироваться с кошельком' }));
    expect(describedError(screen.getByLabelText(ru.agree))).toBe('Обязательное поле!');
    expect(page.commands).toEqual([]);

    // The message goes as the box is ticked, before the pointer leaves it for the button.
    await click(screen.getByLabelText(ru.agree));
    expect(screen.getByLabelText(ru.agree).hasAttribute('aria-invalid')).toBe(false);
    await click(screen.getByRole('button', { name: 'Зарегистрироваться с кошельком' }));
    expect(page.commands).toEqual([{ type: 'session/wallet-sign-in', invite: 'Ref_123' }]);
  });

  it('refuses an invite the server does not know before submit, and can go on without it', async () => {
    const register = jest.fn().mockResolvedValue(auth);
    const page = renderPage(<SignUpPage />, { path: '/sign-up?invite=Nobody', api: { referralsInvite: async () => ({ valid: false }), register } });
    await waitFor(() => expect(describedError(screen.getByLabelText('Invite code'))).toBe('The invite code is not valid'));
    fill(en, { email: 'ann@example.com', password: 'Secret#1', repeat: 'Secret#1', agree: true });
    await click(screen.getByRole('button', { name: en.submit }));
    await click(screen.getByRole('button', { name: 'Sign up with wallet' }));
    expect(register).not.toHaveBeenCalled();
    expect(page.commands).toEqual([]);
    expect(document.activeElement).toBe(screen.getByLabelText('Invite code'));

    await click(screen.getByRole('button', { name: 'Sign up without the invite' }));
    expect(screen.queryByLabelText('Invite code')).toBeNull();
    await click(screen.getByRole('button', { name: en.submit }));
    await waitFor(() => expect(page.location()).toBe('/registration-confirm'));
    expect(register).toHaveBeenLastCalledWith({ body: { login: 'ann@example.com', password: 'Secret#1', lang: 'en' } });
  });

  it('still shows an invite the sign-up refuses beside it (the server has the last word)', async () => {
    const register = jest.fn().mockRejectedValueOnce(shellApiError(400, 'The invite code is not valid', { invite: 'The invite code is not valid' }));
    const page = renderPage(<SignUpPage />, { path: '/sign-up?invite=Gone', api: { referralsInvite: validInvite, register } });
    await screen.findByText('The invite code is verified.');
    fill(en, { email: 'ann@example.com', password: 'Secret#1', repeat: 'Secret#1', agree: true });
    await click(screen.getByRole('button', { name: en.submit }));
    expect(describedError(screen.getByLabelText('Invite code'))).toBe('The invite code is not valid');
    expect(page.notifications()).toEqual([{ kind: 'error', title: 'Error', message: 'The invite code is not valid' }]);
  });

  it('waits for a check in flight before sending, and checks again after a failed check', async () => {
    const first = deferred<{ valid: boolean }>();
    const referralsInvite = jest.fn().mockReturnValueOnce(first.promise).mockRejectedValueOnce(shellApiError(429, 'Too many requests. Please try again later.')).mockResolvedValue({ valid: true });
    const register = jest.fn().mockResolvedValue(auth);
    renderPage(<SignUpPage />, { path: '/sign-up?invite=Slow_1', api: { referralsInvite, register } });
    expect(screen.getByText('Checking the invite code…')).toBeTruthy();
    fill(en, { email: 'ann@example.com', password: 'Secret#1', repeat: 'Secret#1', agree: true });
    await click(screen.getByRole('button', { name: en.submit }));
    expect(register).not.toHaveBeenCalled();
    await act(async () => first.reject(shellApiError(0, '')));
    expect(describedError(screen.getByLabelText('Invite code'))).toBe('Could not check the invite code. Please try again.');
    expect(register).not.toHaveBeenCalled();

    await click(screen.getByRole('button', { name: en.submit }));
    expect(describedError(screen.getByLabelText('Invite code'))).toBe('Too many requests. Please try again later.');
    await click(screen.getByRole('button', { name: en.submit }));
    await waitFor(() => expect(register).toHaveBeenCalledTimes(1));
    expect(register).toHaveBeenCalledWith({ body: { login: 'ann@example.com', password: 'Secret#1', lang: 'en', invite: 'Slow_1' } });
  });

  it('flags a malformed invite at once and neither checks nor sends it', async () => {
    const page = renderPage(<SignUpPage />, { path: '/sign-up?invite=%3Cscript%3E' });
    expect(describedError(screen.getByLabelText('Invite code'))).toBe('The invite code is not valid');
    fill(en, { email: 'ann@example.com', password: 'Secret#1', repeat: 'Secret#1', agree: true });
    await click(screen.getByRole('button', { name: en.submit }));
    await click(screen.getByRole('button', { name: 'Sign up with wallet' }));
    expect(page.calls).toEqual([]);
    expect(page.commands).toEqual([]);
  });
});
