/** @jest-environment jsdom */
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderRemote } from '@app/ui/testing';
import type { Profile } from '@app/contracts';
import en from '../i18n/en.json';
import ru from '../i18n/ru.json';
import { PersonalInfo } from './PersonalInfo';

const profile: Profile = { id: 'u1', name: null, email: 'ann@example.com', phone: null, telegram: null, avatar: null, walletAddress: null, role: 'user', lang: 'en', theme: null, referralCode: 'r', pendingEmail: null, withdrawalsHeldUntil: null };
const described = (el: HTMLElement) => (el.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)?.textContent).join(' ');

describe('personal info', () => {
  it.each([
    ['en', 'Name', 'Phone', 'Save', 'Not all fields are filled in correctly', 'Max length is 50!', 'Please check your phone number!'],
    ['ru', 'Имя', 'Телефон', 'Сохранить', 'Не все поля заполнены правильно', 'Максимальная длина 50!', 'Пожалуйста, проверьте номер телефона!'],
  ] as const)('shows the general message and each field message (%s); nothing is sent', async (lang, nameLabel, phoneLabel, save, general, max, phone) => {
    const page = renderRemote(<PersonalInfo profile={profile} onSaved={() => undefined} />, { namespace: 'dao', strings: { en, ru }, path: '/cabinet/settings', lang });
    fireEvent.change(screen.getByLabelText(nameLabel), { target: { value: 'n'.repeat(51) } });
    fireEvent.change(screen.getByLabelText(phoneLabel), { target: { value: '+1 555 000 0000' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: save }));
    });
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(general));
    expect(described(screen.getByLabelText(nameLabel))).toContain(max);
    expect(described(screen.getByLabelText(phoneLabel))).toContain(phone);
    expect(page.calls).toEqual([]);
  });

  it('saves and asks the shell to read the user again (the greeting follows)', async () => {
    const page = renderRemote(<PersonalInfo profile={profile} onSaved={() => undefined} />, {
      namespace: 'dao',
      strings: { en, ru },
      path: '/cabinet/settings',
      api: { userUpdate: async () => ({ ...profile, name: 'Ann' }) },
    });
    fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Ann' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    });
    await waitFor(() => expect(page.commands).toContainEqual({ type: 'session/reload-user' }));
    expect(page.calls[0]).toEqual({ name: 'userUpdate', request: { body: { name: 'Ann', email: 'ann@example.com', phone: '', telegram: '' } } });
  });

  it('a new e-mail asks for the owner proof and sends it with the change', async () => {
    const page = renderRemote(<PersonalInfo profile={profile} onSaved={() => undefined} />, {
      namespace: 'dao',
      strings: { en, ru },
      path: '/cabinet/settings',
      api: { userUpdate: async () => ({ ...profile, pendingEmail: 'new@example.com' }) },
    });
    expect(screen.queryByLabelText('Your password')).toBeNull();
    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'new@example.com' } });
    fireEvent.change(screen.getByLabelText('Your password'), { target: { value: 'Str0ng!pass' } });
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    });
    await waitFor(() => expect(page.calls).toHaveLength(1));
    expect(page.calls[0]).toEqual({ name: 'userUpdate', request: { body: { name: '', email: 'new@example.com', phone: '', telegram: '', password: 'Str0ng!pass' } } });
  });

  it('names the owner proof in Russian', async () => {
    renderRemote(<PersonalInfo profile={profile} onSaved={() => undefined} />, { namespace: 'dao', strings: { en, ru }, path: '/cabinet/settings', lang: 'ru' });
    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'new@example.com' } });
    expect(await screen.findByLabelText('Ваш пароль')).toBeTruthy();
    expect(screen.getByLabelText('Код, отправленный на текущий адрес')).toBeTruthy();
  });
});
