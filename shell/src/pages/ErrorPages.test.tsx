/** @jest-environment jsdom */
import { act, render, screen } from '@testing-library/react';
import i18next from 'i18next';
import { I18nextProvider } from '@app/singletons/react-i18n';
import en from '../i18n/en.json';
import { RouteErrorBoundary } from './ErrorPages';

function Boom({ error }: { error: unknown }): never {
  throw error;
}

async function renderAt(pathname: string, child: React.ReactNode) {
  const i18n = i18next.createInstance();
  await i18n.init({ lng: 'en', resources: { en: { shell: en } }, defaultNS: 'shell' });
  const ui = (path: string, node: React.ReactNode) => (
    <I18nextProvider i18n={i18n}>
      <RouteErrorBoundary pathname={path}>{node}</RouteErrorBoundary>
    </I18nextProvider>
  );
  const view = render(ui(pathname, child));
  return { ...view, goTo: (path: string, node: React.ReactNode) => act(() => view.rerender(ui(path, node))) };
}

describe('route error page', () => {
  // React reports caught render errors on the console; the page is what matters here.
  beforeEach(() => jest.spyOn(console, 'error').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it('shows 500 and the message when a page throws', async () => {
    await renderAt('/cabinet/dashboard', <Boom error={new Error('cannot read the pools')} />);
    expect(screen.getByRole('heading', { name: 'Oops! Something goes wrong' })).toBeTruthy();
    expect(screen.getByText('Error 500')).toBeTruthy();
    expect(screen.getByText('cannot read the pools')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the dashboard' }).getAttribute('href')).toBe('/cabinet/dashboard');
  });

  it('shows the status an error carries', async () => {
    await renderAt('/cabinet/dao', <Boom error={Object.assign(new Error('Forbidden'), { status: 403 })} />);
    expect(screen.getByText('Error 403')).toBeTruthy();
  });

  it('stays on the same path, and clears when the user goes elsewhere', async () => {
    const view = await renderAt('/cabinet/dao', <Boom error={new Error('broken')} />);
    await view.goTo('/cabinet/dao', <p>DAO</p>);
    expect(screen.getByText('broken')).toBeTruthy();
    await view.goTo('/cabinet/settings', <p>Settings</p>);
    expect(screen.getByText('Settings')).toBeTruthy();
    expect(screen.queryByText('broken')).toBeNull();
  });
});
