import { createBus, disconnectedWallet } from '@app/ui';
import { localeOfPath, stripLocale, withLocale } from './locale/locale';
import { isChunkLoadError, reloadForChunkError } from './remotes/chunkReload';
import { ManifestError, fetchRuntimeManifest, routeOwner } from './remotes/manifest';
import { resolveTheme } from './theme/theme';
import { createNotificationCenter } from './notifications/notifications';

describe('locale paths', () => {
  it('puts Russian under /ru and English at the root', () => {
    expect(withLocale('/cabinet/dashboard', 'ru')).toBe('/ru/cabinet/dashboard');
    expect(withLocale('/ru/cabinet/dashboard', 'en')).toBe('/cabinet/dashboard');
    expect(withLocale('/', 'ru')).toBe('/ru');
    expect(stripLocale('/ru')).toBe('/');
    expect(localeOfPath('/ru/sign-in')).toBe('ru');
    expect(localeOfPath('/rules')).toBe('en');
  });
});

describe('chunk reload guard', () => {
  it('reloads at most once per 60 seconds', () => {
    const store = new Map<string, string>();
    const storage = { getItem: (k: string) => store.get(k) ?? null, setItem: (k: string, v: string) => void store.set(k, v) };
    const reload = jest.fn();
    expect(reloadForChunkError(storage, reload, 1_000_000)).toBe(true);
    expect(reloadForChunkError(storage, reload, 1_000_000 + 59_999)).toBe(false);
    expect(reloadForChunkError(storage, reload, 1_000_000 + 60_000)).toBe(true);
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('recognises a chunk-load failure, also as a cause', () => {
    const chunk = Object.assign(new Error('Loading chunk 123 failed.'), { name: 'ChunkLoadError' });
    expect(isChunkLoadError(chunk)).toBe(true);
    expect(isChunkLoadError(new Error('remote failed', { cause: chunk }))).toBe(true);
    expect(isChunkLoadError(new Error('something else'))).toBe(false);
  });
});

describe('runtime manifest', () => {
  const answer = (body: string, status = 200) => jest.fn(async () => new Response(body, { status })) as unknown as typeof fetch;
  const remote = { name: 'mf_pools', entry: 'http://localhost:3003/mf-manifest.json', routes: [{ path: '/cabinet/pools', layout: 'inner' }], contract: '1.0' };

  it('accepts a valid manifest', async () => {
    await expect(fetchRuntimeManifest('/remotes.json', answer(JSON.stringify({ remotes: [remote] })))).resolves.toMatchObject({ remotes: [{ name: 'mf_pools' }] });
  });

  it.each([
    ['not JSON', '{ "remotes": ['],
    ['no remotes', '{ "remotes": [] }'],
    ['a bad entry URL', JSON.stringify({ remotes: [{ ...remote, entry: 'not a url' }] })],
    ['a bad contract', JSON.stringify({ remotes: [{ ...remote, contract: 'x' }] })],
  ])('refuses %s as malformed', async (_what, body) => {
    await expect(fetchRuntimeManifest('/remotes.json', answer(body))).rejects.toEqual(expect.objectContaining({ message: 'malformed' }));
  });

  it('finds the remote and route owning a path as the router matches them', async () => {
    const manifest = await fetchRuntimeManifest('/remotes.json', answer(JSON.stringify({ remotes: [
      { ...remote, routes: [{ path: '/cabinet/pools/:pool', layout: 'inner', private: true }] },
      { ...remote, name: 'mf_auth', routes: [{ path: '/sign-in', layout: 'auth' }] },
    ] })));
    expect(routeOwner(manifest, '/cabinet/pools/stable')).toMatchObject({ remote: { name: 'mf_pools' }, route: { layout: 'inner' } });
    expect(routeOwner(manifest, '/sign-in')).toMatchObject({ remote: { name: 'mf_auth' }, route: { layout: 'auth' } });
    expect(routeOwner(manifest, '/cabinet/pools')).toBeUndefined();
    expect(routeOwner(manifest, '/cabinet/pools/stable/more')).toBeUndefined();
  });

  it('calls a 404 unreachable', async () => {
    const error = await fetchRuntimeManifest('/remotes.json', answer('', 404)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ManifestError);
    expect((error as ManifestError).message).toBe('unreachable');
  });
});

describe('theme', () => {
  it('follows the system only when asked to', () => {
    expect(resolveTheme('system', true)).toEqual({ choice: 'system', resolved: 'dark' });
    expect(resolveTheme('system', false).resolved).toBe('light');
    expect(resolveTheme('light', true).resolved).toBe('light');
  });
});

describe('notifications', () => {
  it('shows at most three, each for 3000 ms', async () => {
    const bus = createBus({ session: { status: 'anonymous' }, wallet: disconnectedWallet, theme: { choice: 'light', resolved: 'light' }, locale: 'en', route: { pathname: '/', search: '', hash: '', key: 'k' } });
    await bus.checksReady();
    jest.useFakeTimers();
    const center = createNotificationCenter(bus);
    for (const message of ['one', 'two', 'three', 'four']) bus.send({ type: 'notify', notification: { kind: 'info', message } });
    expect(center.shown.getValue().map((n) => n.message)).toEqual(['two', 'three', 'four']);
    jest.advanceTimersByTime(2999);
    expect(center.shown.getValue().map((n) => n.message)).toEqual(['two', 'three', 'four']);
    jest.advanceTimersByTime(1);
    expect(center.shown.getValue()).toEqual([]);
    jest.useRealTimers();
  });

  it('refuses a malformed command on the bus', async () => {
    const bus = createBus({ session: { status: 'anonymous' }, wallet: disconnectedWallet, theme: { choice: 'light', resolved: 'light' }, locale: 'en', route: { pathname: '/', search: '', hash: '', key: 'k' } });
    await bus.checksReady();
    expect(() => bus.send({ type: 'navigate', to: 'https://evil.example' } as never)).toThrow(/Refused bus command/);
  });

  it('holds commands sent before their schema is in, then hands them on in order, a malformed one reported and dropped', async () => {
    const bus = createBus({ session: { status: 'anonymous' }, wallet: disconnectedWallet, theme: { choice: 'light', resolved: 'light' }, locale: 'en', route: { pathname: '/', search: '', hash: '', key: 'k' } });
    const seen: string[] = [];
    bus.commands$.subscribe((command) => {
      seen.push(command.type === 'navigate' ? command.to : command.type);
      // A command sent while the held ones are handed on waits behind them.
      if (command.type === 'navigate' && command.to === '/one') bus.send({ type: 'navigate', to: '/three' });
    });
    const reported = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    bus.send({ type: 'navigate', to: '/one' });
    bus.send({ type: 'navigate', to: 'https://evil.example' } as never);
    bus.send({ type: 'navigate', to: '/two' });
    expect(seen).toEqual([]);
    await bus.checksReady();
    expect(seen).toEqual(['/one', '/two', '/three']);
    expect(reported).toHaveBeenCalledTimes(1);
    expect(String(reported.mock.calls[0]![0])).toMatch(/Refused bus command/);
    reported.mockRestore();
  });
});
