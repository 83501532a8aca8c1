/** @jest-environment jsdom */
import { render, screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider } from '@app/singletons/react-i18n';
import { MemoryRouter } from '@app/singletons/router';
import { createBus, disconnectedWallet } from '@app/ui';
import { ShellContext, type ShellServices } from '../app/ShellContext';
import en from '../i18n/en.json';
import ru from '../i18n/ru.json';
import { Sidebar } from './Sidebar';

const consoleRemote = { name: 'mf_operator', entry: 'http://localhost:3006/mf-manifest.json', contract: '1.1', routes: [{ path: '/operator', layout: 'inner', private: true, role: 'operator' }] };

async function renderSidebar(locale: 'en' | 'ru', path: string, { role = null as string | null, remotes = [] as unknown[] } = {}) {
  const session = role ? { status: 'authenticated', user: { id: 'u', email: 'a@b.c', role } } : { status: 'anonymous' };
  const bus = createBus({ session: session as never, wallet: disconnectedWallet, theme: { choice: 'light', resolved: 'light' }, locale, route: { pathname: path, search: '', hash: '', key: 'k' } });
  const i18n = i18next.createInstance();
  await i18n.init({ lng: locale, resources: { en: { shell: en }, ru: { shell: ru } }, defaultNS: 'shell' });
  // Only what the sidebar reads of the shell: the bus, the brand's title and its social links.
  const shell = { bus, i18n, brandTitle: 'Brand', brand: { social: {} }, manifest: { remotes } } as unknown as ShellServices;
  render(
    <ShellContext.Provider value={shell}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={[path]}>
          <Sidebar expanded={false} compact={false} onToggle={() => undefined} onNavigate={() => undefined} />
        </MemoryRouter>
      </I18nextProvider>
    </ShellContext.Provider>,
  );
}

describe('the sidebar (issue 27, finding 1)', () => {
  it.each([
    ['en', '/cabinet/dashboard', 'Solvency', '/solvency'],
    ['ru', '/ru/cabinet/dashboard', 'Платёжеспособность', '/ru/solvency'],
  ] as const)('finding 1: links the public solvency page, in the page language (%s)', async (locale, path, name, href) => {
    await renderSidebar(locale, path);
    const menu = screen.getByRole('navigation');
    expect(within(menu).getByRole('link', { name }).getAttribute('href')).toBe(href);
  });

  it('finding 1: marks the solvency link as the active item on its page', async () => {
    await renderSidebar('en', '/solvency');
    expect(screen.getByRole('link', { name: 'Solvency' }).getAttribute('aria-current')).toBe('page');
  });
});

describe('the operator console in the sidebar (issue 26)', () => {
  it('links the console for an operator on a host that serves it', async () => {
    await renderSidebar('en', '/cabinet/dashboard', { role: 'operator', remotes: [consoleRemote] });
    expect(screen.getByRole('link', { name: 'Operator console' }).getAttribute('href')).toBe('/operator');
  });

  it.each([
    ['a user without the role', 'investor', [consoleRemote]],
    ['an operator on a host without the console', 'operator', []],
  ] as const)('shows no console link to %s', async (_case, role, remotes) => {
    await renderSidebar('en', '/cabinet/dashboard', { role, remotes: [...remotes] });
    expect(screen.queryByRole('link', { name: 'Operator console' })).toBeNull();
  });
});
