import { createBus, disconnectedWallet } from '@app/ui';
import { fetchTakingEarlyCalls } from './early';
import { createSessionService } from './session';

const user = { id: 'u1', name: null, login: 'a@example.com', role: 'user', metaMaskAddress: null };
const jwt = (exp: number) => `h.${Buffer.from(JSON.stringify({ exp })).toString('base64url')}.s`;
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function bus(locale: 'en' | 'ru' = 'en') {
  return createBus({
    session: { status: 'unknown' },
    wallet: disconnectedWallet,
    theme: { choice: 'light', resolved: 'light' },
    locale,
    route: { pathname: '/', search: '', hash: '', key: 'k' },
  });
}

// The session schedules its next refresh on a timer.
beforeEach(() => jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick'] }));
afterEach(() => jest.useRealTimers());

describe('the calls the page started before the shell', () => {
  it('restores the session from the page’s refresh, without a second refresh', async () => {
    const token = jwt(Math.floor(Date.now() / 1000) + 900);
    const calls: Record<string, Promise<Response | null>> = { 'POST /api/v1/refresh en': Promise.resolve(json({ token, user, refreshToken: 'r' })) };
    const network = jest.fn(async () => json({ message: 'no' }, 401));
    const b = bus();
    const session = createSessionService(b, {}, fetchTakingEarlyCalls(calls, network as unknown as typeof fetch), () => true);
    await session.restore();
    expect(b.session.getValue()).toEqual({ status: 'authenticated', user });
    expect(session.accessToken()).toBe(token);
    expect(network).not.toHaveBeenCalled();
    // Taken once: the next refresh is the session's own.
    expect(calls).toEqual({});
  });

  it('answers a first-screen call once, with the answer the page fetched; the next goes to the network', async () => {
    const early = new Response('early');
    const calls: Record<string, Promise<Response | null>> = { 'GET /api/v1/cabinet/summary en': Promise.resolve(early) };
    const network = jest.fn(async () => new Response('network'));
    const fetchImpl = fetchTakingEarlyCalls(calls, network as unknown as typeof fetch);
    const init = { method: 'GET', headers: { 'Accept-Language': 'en' } };
    expect(await (await fetchImpl('/api/v1/cabinet/summary', init)).text()).toBe('early');
    expect(network).not.toHaveBeenCalled();
    expect(await (await fetchImpl('/api/v1/cabinet/summary', init)).text()).toBe('network');
    expect(network).toHaveBeenCalledTimes(1);
  });

  it('asks the network when the early call was not made, was for another language or another call', async () => {
    const network = jest.fn(async () => new Response('network'));
    const calls: Record<string, Promise<Response | null>> = {
      'GET /api/v1/cabinet/summary en': Promise.resolve(null),
      'GET /api/v1/dashboard/pools/stable en': Promise.resolve(new Response('early')),
    };
    const fetchImpl = fetchTakingEarlyCalls(calls, network as unknown as typeof fetch);
    expect(await (await fetchImpl('/api/v1/cabinet/summary', { headers: { 'Accept-Language': 'en' } })).text()).toBe('network');
    expect(await (await fetchImpl('/api/v1/dashboard/pools/stable', { headers: { 'Accept-Language': 'ru' } })).text()).toBe('network');
    expect(await (await fetchImpl('/api/v1/dashboard/pools/growth', { headers: { 'Accept-Language': 'en' } })).text()).toBe('network');
    expect(network).toHaveBeenCalledTimes(3);
    expect(await (await fetchTakingEarlyCalls({}, network as unknown as typeof fetch)('/api/v1/profile')).text()).toBe('network');
  });
});
