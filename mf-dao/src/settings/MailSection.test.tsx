/** @jest-environment jsdom */
import { act, fireEvent, screen } from '@testing-library/react';
import { renderRemote } from '@app/ui/testing';
import en from '../i18n/en.json';
import ru from '../i18n/ru.json';
import { MailSection } from './MailSection';

const allOn = { depositCredited: true, withdrawalPaid: true, withdrawalReturned: true, claimPaid: true, withdrawalHeld: true };

describe('mail about money (issue 27, finding 11)', () => {
  it('finding 11: each mail about money has its switch; saving sends the choice; security notices are said to be always sent', async () => {
    const page = renderRemote(<MailSection />, {
      namespace: 'dao',
      strings: { en, ru },
      path: '/cabinet/settings',
      api: { settingsMail: async () => allOn, settingsMailUpdate: async (r: unknown) => ({ ...allOn, ...(r as { body: object }).body }) },
    });
    const deposit = (await screen.findByLabelText('A deposit is credited')) as HTMLInputElement;
    expect(deposit.checked).toBe(true);
    expect(screen.getAllByRole('checkbox')).toHaveLength(5);
    expect(screen.getByText(/Security notices .* are always sent/)).toBeTruthy();
    fireEvent.click(deposit);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    });
    expect(page.calls.find((c) => c.name === 'settingsMailUpdate')?.request).toEqual({ body: { ...allOn, depositCredited: false } });
    expect(((await screen.findByLabelText('A deposit is credited')) as HTMLInputElement).checked).toBe(false);
  });
});
