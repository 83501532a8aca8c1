/** @jest-environment jsdom */
import { render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider } from '@app/singletons/react-i18n';
import { MemoryRouter } from '@app/singletons/router';
import { createBus, disconnectedWallet } from '@app/ui';
import type { RemoteEntry, RemoteRoute } from '@app/contracts';
import { ShellContext, type ShellServices } from '../app/ShellContext';
import en from '../i18n/en.json';
import { RouteAccess } from './guards';

const warmRemote = jest.fn();
jest.mock('../remotes/loader', () => ({ warmRemote: (...args: unknown[]) => warmRemote(...args) }));

const route: RemoteRoute = { path: '/operator', layout: 'inner', private: true, role: 'operator' };
const remote: RemoteEntry = { name: 'mf_operator', entry: 'http://localhost:3006/mf-manifest.json', contract: '1.1', routes: [route] };

async function renderRoute(session: unknown, r: RemoteRoute = route) {
  const bus = createBus({ session: session as never, wallet: disconnectedWallet, theme: { choice: 'light', resolved: 'light' }, locale: 'en', route: { pathname: r.path, search: '', hash: '', key: 'k' } });
  const i18n = i18next.createInstance();
  await i18n.init({ lng: 'en', resources: { en: { shell: en } }, defaultNS: 'shell' });
  render(
    <ShellContext.Provider value={{ bus, i18n } as unknown as ShellServices}>
      <I18nextProvider i18n={i18n}>
        <MemoryRouter initialEntries={[r.path]}>
          <RouteAccess route={r} remote={remote}>
            <p>the console</p>
          </RouteAccess>
        </MemoryRouter>
      </I18nextProvider>
    </ShellContext.Provider>,
  );
}

const user = (role: string) => ({ status: 'authenticated', user: { id: 'u', email: 'a@b.c', role } });

describe('a route of a role (issue 26, the operator console)', () => {
  beforeEach(() => warmRemote.mockClear());

  it('is the 404 page for a signed-in user without the role, and its remote is never loaded', async () => {
    await renderRoute(user('investor'));
    expect(screen.getByRole('heading', { name: 'This page could not be found' })).toBeTruthy();
    expect(screen.queryByText('the console')).toBeNull();
    expect(warmRemote).not.toHaveBeenCalled();
  });

  it('is not warmed while the session is still being read', async () => {
    await renderRoute({ status: 'unknown' });
    expect(screen.queryByText('the console')).toBeNull();
    expect(warmRemote).not.toHaveBeenCalled();
  });

  it('opens for an account with the role', async () => {
    await renderRoute(user('operator'));
    expect(screen.getByText('the console')).toBeTruthy();
  });

  it('a route without a role is still warmed while the session is read', async () => {
    await renderRoute({ status: 'unknown' }, { path: '/cabinet/dao', layout: 'inner', private: true });
    expect(warmRemote).toHaveBeenCalledTimes(1);
  });
});
