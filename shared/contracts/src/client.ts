import type * as z from 'zod/mini';
import type { ApiRouteName, ApiRoutes } from './api/routes';
import type { CabinetRouteName } from './api/cabinet-routes';
import type { HomeRouteName } from './api/home-routes';
import type { AuthResponse, sessionRoutes } from './api/session-routes';
import { apiBasePath } from './api/session-constants';
import { internalError } from './api/message-texts';
import { retryingOnce } from './lazy';

type Route<N extends ApiRouteName> = ApiRoutes[N];
type Field<N extends ApiRouteName, K extends string> = Route<N> extends { [P in K]: infer S } ? (S extends z.ZodMiniType ? z.input<S> : never) : never;

export type ApiRequest<N extends ApiRouteName> = {
  body?: Field<N, 'body'>;
  query?: Field<N, 'query'>;
  params?: Field<N, 'params'>;
  signal?: AbortSignal;
};
export type ApiResponse<N extends ApiRouteName> = z.output<Route<N>['response']>;

/** An answer other than success: its status, the server's message and per-field messages. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fields: Record<string, string> = {},
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** An ApiError as a remote sees it: the shell's object, made by another bundle's class. */
export type ApiFailure = { status: number; message: string; fields: Record<string, string>; code?: string };

/**
 * The API client's error, recognised by shape (never with instanceof: across the remote boundary
 * the class is the shell bundle's); undefined for anything else.
 */
export function apiFailure(error: unknown): ApiFailure | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const e = error as { name?: unknown; status?: unknown; message?: unknown; fields?: unknown; code?: unknown };
  if (e.name !== 'ApiError' || typeof e.status !== 'number' || typeof e.message !== 'string') return undefined;
  const fields = typeof e.fields === 'object' && e.fields ? (e.fields as Record<string, string>) : {};
  return { status: e.status, message: e.message, fields, ...(typeof e.code === 'string' ? { code: e.code } : {}) };
}

/** Whether `error` is the API client's error (see apiFailure). */
export function isApiError(error: unknown): error is { status: number; message: string; fields?: Record<string, string> } {
  return apiFailure(error) !== undefined;
}

export interface ApiClientOptions {
  baseUrl?: string;
  /** The current access token, if any. */
  accessToken(): string | null;
  /** Gets a new access token; the session keeps one refresh in flight at a time. */
  refresh(): Promise<string | null>;
  /** Told about every answer that carries tokens (login, register, refresh, confirm), and which call it was. */
  onAuthenticated?(auth: AuthResponse, via: ApiRouteName): void;
  language?(): 'en' | 'ru';
  fetch?: typeof fetch;
}

export interface ApiClient {
  call<N extends ApiRouteName>(name: N, request?: ApiRequest<N>): Promise<ApiResponse<N>>;
}

type AnyRoute = ApiRoutes[ApiRouteName];

// Every call's schemas are a chunk fetched (in browsers) by the first call that needs it, so no
// page's start-up carries zod: the session's calls (and the error answer's schema) in one, the
// dashboard's in another, so its first load carries no other screen's schemas, and the rest in one.
const sessionSchemas = retryingOnce(() => import(/* webpackChunkName: "session-schemas" */ './api/session-routes'));
const allRoutes = retryingOnce(() => import(/* webpackChunkName: "api-schemas" */ './api/routes').then((m) => m.apiRoutes));
const cabinetRoutes = retryingOnce(() => import(/* webpackChunkName: "cabinet-schemas" */ './api/cabinet-routes').then((m) => m.cabinetRoutes));
const SESSION_CALLS: Record<keyof typeof sessionRoutes, true> = { logout: true, refresh: true };
const CABINET_CALLS: Record<CabinetRouteName, true> = { cabinetSummary: true, cabinetActivity: true, cabinetActivityExport: true, cabinetTutorial: true, cabinetRevision: true };
const homeSchemas = retryingOnce(() => import(/* webpackChunkName: "home-schemas" */ './api/home-routes').then((m) => m.homeRoutes));
const HOME_CALLS: Record<HomeRouteName, true> = { poolsOverview: true, poolReserves: true };

function routeOf(name: ApiRouteName): Promise<AnyRoute> {
  if (name in SESSION_CALLS) return sessionSchemas().then((m) => m.sessionRoutes[name as keyof typeof sessionRoutes]);
  if (name in CABINET_CALLS) return cabinetRoutes().then((routes) => routes[name as CabinetRouteName]);
  if (name in HOME_CALLS) return homeSchemas().then((routes) => routes[name as HomeRouteName]);
  return allRoutes().then((routes) => routes[name]);
}

const TOKEN_ROUTES = new Set<ApiRouteName>(['login', 'loginV2', 'register', 'refresh', 'confirmLogin']);

function fillPath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:([A-Za-z]+)/g, (_m, key: string) => encodeURIComponent(String(params?.[key] ?? '')));
}

/**
 * The one way the front ends reach the API: bearer token from the session, a 401 answered by
 * one refresh and one retry, answers parsed with the schemas the server validates with.
 */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const base = options.baseUrl ?? apiBasePath;
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));

  async function send(route: AnyRoute, request: ApiRequest<ApiRouteName>, token: string | null): Promise<Response> {
    const query = request.query ? `?${new URLSearchParams(Object.entries(request.query as Record<string, unknown>).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]))}` : '';
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (token && route.auth) headers.Authorization = `Bearer ${token}`;
    const lang = options.language?.();
    if (lang) headers['Accept-Language'] = lang;
    let body: string | undefined;
    if (route.method !== 'GET') {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(request.body ?? {});
    }
    return doFetch(`${base}${fillPath(route.path, request.params as Record<string, unknown> | undefined)}${query}`, {
      method: route.method,
      headers,
      body,
      credentials: 'same-origin',
      signal: request.signal,
    });
  }

  async function call<N extends ApiRouteName>(name: N, request: ApiRequest<N> = {}): Promise<ApiResponse<N>> {
    // A failure to load the schemas is not the API's: it reaches the caller as it is.
    const route = await routeOf(name);
    let response: Response;
    try {
      response = await send(route, request as ApiRequest<ApiRouteName>, options.accessToken());
      if (response.status === 401 && route.auth) {
        const fresh = await options.refresh();
        if (fresh) response = await send(route, request as ApiRequest<ApiRouteName>, fresh);
      }
    } catch (error) {
      if ((error as Error)?.name === 'AbortError') throw error;
      throw new ApiError(0, internalError);
    }
    const text = await response.text();
    let json: unknown = undefined;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (!response.ok) {
      const parsed = (await sessionSchemas()).errorResponseSchema.safeParse(json);
      if (parsed.success) throw new ApiError(response.status, parsed.data.message, parsed.data.fields, parsed.data.code);
      throw new ApiError(response.status, internalError);
    }
    const data = route.response.parse(json) as ApiResponse<N>;
    if (TOKEN_ROUTES.has(name)) options.onAuthenticated?.((await sessionSchemas()).authResponseSchema.parse(data), name);
    return data;
  }

  return { call };
}
