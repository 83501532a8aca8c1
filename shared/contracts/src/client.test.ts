import { ApiError, apiFailure, createApiClient, isApiError } from './client';

const user = { id: 'u1', name: null, login: 'a@example.com', role: 'user', metaMaskAddress: null };
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function client(responses: Response[], token = 'old') {
  const requests: { url: string; init: RequestInit }[] = [];
  let current: string | null = token;
  const refresh = jest.fn(async () => (current = 'new'));
  const onAuthenticated = jest.fn();
  const api = createApiClient({
    accessToken: () => current,
    refresh,
    onAuthenticated,
    language: () => 'ru',
    fetch: async (url, init) => {
      requests.push({ url: String(url), init: init ?? {} });
      const next = responses.shift();
      if (!next) throw new Error('no more answers');
      return next;
    },
  });
  return { api, requests, refresh, onAuthenticated };
}

const profile = { id: 'u1', name: null, email: 'a@example.com', phone: null, telegram: null, avatar: null, walletAddress: null, role: 'user', lang: 'en', theme: null, referralCode: 'abc', pendingEmail: null, withdrawalsHeldUntil: null };

it('sends the bearer token and the language, and parses the answer', async () => {
  const { api, requests } = client([json(200, profile)]);
  await expect(api.call('profile')).resolves.toMatchObject({ email: 'a@example.com' });
  const headers = requests[0]!.init.headers as Record<string, string>;
  expect(requests[0]!.url).toBe('/api/v1/profile');
  expect(headers.Authorization).toBe('Bearer old');
  expect(headers['Accept-Language']).toBe('ru');
});

it('answers a 401 with one refresh and one retry with the new token', async () => {
  const { api, requests, refresh } = client([json(401, { message: 'expired' }), json(200, profile)]);
  await api.call('profile');
  expect(refresh).toHaveBeenCalledTimes(1);
  expect((requests[1]!.init.headers as Record<string, string>).Authorization).toBe('Bearer new');
});

it('does not loop when the retry is refused too', async () => {
  const { api, refresh } = client([json(401, { message: 'expired' }), json(401, { message: 'Please login to access this page!' })]);
  await expect(api.call('profile')).rejects.toMatchObject({ status: 401, message: 'Please login to access this page!' });
  expect(refresh).toHaveBeenCalledTimes(1);
});

it('turns an error answer into an ApiError with the server message and fields', async () => {
  const { api } = client([json(400, { message: 'Not all fields are filled in correctly', fields: { login: 'Please check your email' } })]);
  const error = (await api.call('login', { body: { login: 'x', password: 'y' } }).catch((e: unknown) => e)) as ApiError;
  expect(error).toBeInstanceOf(ApiError);
  expect(error.fields).toEqual({ login: 'Please check your email' });
});

it('hands token answers to the session', async () => {
  const { api, onAuthenticated } = client([json(200, { user, token: 't', refreshToken: 'r' })]);
  await api.call('login', { body: { login: 'a@example.com', password: 'Secret#1' } });
  expect(onAuthenticated).toHaveBeenCalledWith(expect.objectContaining({ token: 't', user: expect.objectContaining({ id: 'u1' }) }), 'login');
});

it('reports a network failure as a generic error, not a crash', async () => {
  const api = createApiClient({ accessToken: () => null, refresh: async () => null, fetch: async () => Promise.reject(new TypeError('Failed to fetch')) });
  await expect(api.call('faq')).rejects.toMatchObject({ status: 0 });
});

describe('apiFailure', () => {
  it('knows the client’s error by its shape, as a remote receives it from the shell', () => {
    expect(apiFailure(new ApiError(400, 'Not all fields are filled in correctly', { phone: 'Please check your phone number!' }, 'VALIDATION'))).toEqual({
      status: 400,
      message: 'Not all fields are filled in correctly',
      fields: { phone: 'Please check your phone number!' },
      code: 'VALIDATION',
    });
    // Another bundle's ApiError: a plain object with the same name and fields.
    expect(apiFailure({ name: 'ApiError', status: 404, message: 'Not found' })).toEqual({ status: 404, message: 'Not found', fields: {} });
    expect(isApiError({ name: 'ApiError', status: 404, message: 'Not found' })).toBe(true);
  });

  it('answers undefined for anything else', () => {
    for (const other of [undefined, null, 'ApiError', new Error('boom'), { name: 'ApiError', status: '400', message: 'x' }, { name: 'ApiError', status: 400 }, { code: 4001 }]) {
      expect(apiFailure(other)).toBeUndefined();
      expect(isApiError(other)).toBe(false);
    }
  });
});

it('parses the cabinet’s calls with their own schemas, apart from every other call’s', async () => {
  const { api, requests } = client([json(200, { revision: '12' }), json(200, { revision: 12 })]);
  await expect(api.call('cabinetRevision')).resolves.toEqual({ revision: '12' });
  expect(requests[0]!.url).toBe('/api/v1/cabinet/revision');
  // An answer the schema refuses never reaches the page.
  await expect(api.call('cabinetRevision')).rejects.toThrow();
});
