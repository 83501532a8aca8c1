import { createBus, disconnectedWallet } from '@app/ui';
import { createSessionService, hasSessionMarker, tokenExpiry } from './session';

const user = { id: 'u1', name: null, login: 'a@example.com', role: 'user', metaMaskAddress: null };
const jwt = (exp: number) => `h.${Buffer.from(JSON.stringify({ exp })).toString('base64url')}.s`;

function setup(answer: () => Promise<Response>, marker = true) {
  const bus = createBus({
    session: { status: 'unknown' },
    wallet: disconnectedWallet,
    theme: { choice: 'light', resolved: 'light' },
    locale: 'en',
    route: { pathname: '/', search: '', hash: '', key: 'k' },
  });
  const fetchMock = jest.fn(answer);
  const onLoggedOut = jest.fn();
  const session = createSessionService(bus, { onLoggedOut }, fetchMock as unknown as typeof fetch, () => marker);
  return { bus, session, fetchMock, onLoggedOut };
}

const ok = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });

beforeEach(() => jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick'] }));
afterEach(() => jest.useRealTimers());

it('keeps one refresh in flight however many ask', async () => {
  const token = jwt(Math.floor(Date.now() / 1000) + 1800);
  const { session, fetchMock, bus } = setup(async () => ok({ user, token, refreshToken: 'r' }));
  const [a, b, c] = await Promise.all([session.refresh(), session.refresh(), session.refresh()]);
  expect(fetchMock).toHaveBeenCalledTimes(1);
  expect([a, b, c]).toEqual([token, token, token]);
  expect(bus.session.getValue()).toEqual({ status: 'authenticated', user });
  expect(session.accessToken()).toBe(token);
});

it('refreshes by itself a minute before the access token expires', async () => {
  const now = Math.floor(Date.now() / 1000);
  const { session, fetchMock } = setup(async () => ok({ user, token: jwt(now + 1800), refreshToken: 'r' }));
  await session.refresh();
  expect(fetchMock).toHaveBeenCalledTimes(1);
  await jest.advanceTimersByTimeAsync(1_700_000);
  expect(fetchMock).toHaveBeenCalledTimes(1);
  await jest.advanceTimersByTimeAsync(41_000);
  expect(fetchMock).toHaveBeenCalledTimes(2);
});

it('a refused refresh leaves the visitor anonymous', async () => {
  const { session, bus } = setup(async () => new Response(JSON.stringify({ message: 'Please login to access this page!' }), { status: 401 }));
  await session.restore();
  expect(bus.session.getValue()).toEqual({ status: 'anonymous' });
});

it('finding 11: a visitor without the session marker cookie makes no refresh request', async () => {
  const { session, bus, fetchMock } = setup(async () => ok({}), false);
  await session.restore();
  expect(fetchMock).not.toHaveBeenCalled();
  expect(bus.session.getValue()).toEqual({ status: 'anonymous' });
  expect(hasSessionMarker('')).toBe(false);
  expect(hasSessionMarker('theme=dark; signed_in=1')).toBe(true);
  expect(hasSessionMarker('signed_in=0')).toBe(false);
});

it('restores the session when the marker says one may exist', async () => {
  const token = jwt(Math.floor(Date.now() / 1000) + 1800);
  const { session, bus, fetchMock } = setup(async () => ok({ user, token, refreshToken: 'r' }));
  await session.restore();
  expect(fetchMock).toHaveBeenCalledTimes(1);
  expect(bus.session.getValue()).toEqual({ status: 'authenticated', user });
});

it('logout ends the session, says it was a logout, and tells the shell', async () => {
  const token = jwt(Math.floor(Date.now() / 1000) + 1800);
  const { session, bus, onLoggedOut } = setup(async () => ok({ user, token, refreshToken: 'r' }));
  await session.refresh();
  await session.logout();
  expect(bus.session.getValue()).toEqual({ status: 'anonymous', reason: 'logout' });
  expect(session.accessToken()).toBeNull();
  expect(onLoggedOut).toHaveBeenCalledWith(false);
});

it('reads the expiry of a JWT, and nothing from garbage', () => {
  expect(tokenExpiry(jwt(1000))).toBe(1_000_000);
  expect(tokenExpiry('not a token')).toBeNull();
});
