import * as z from 'zod/mini';
import { apiRoutes } from './api/routes';
import { remoteRoutesFileSchema, type RemoteRoute } from './manifest';

// A remote's routes.json as its build checks it: the shape, and every first call naming a GET
// route of the API, so a renamed or mistyped call fails the remote's build, not a visitor's page.

const segments = (path: string) => path.split('/').filter(Boolean);
const isParam = (segment: string) => segment.startsWith(':');

/** The API's GET paths, e.g. /pools/:pool/assets. */
const apiGetPaths = Object.values(apiRoutes)
  .filter((r) => r.method === 'GET')
  .map((r) => r.path);

/** Whether a first call (its path, query aside) is an API GET route: a `:param` stands for any one segment. */
function namesApiRoute(call: string, paths: readonly string[]): boolean {
  const wanted = segments(call.split('?')[0] ?? '');
  return paths.some((path) => {
    const have = segments(path);
    return have.length === wanted.length && have.every((part, i) => isParam(part) || isParam(wanted[i]!) || part === wanted[i]);
  });
}

/** The first calls of a route that name no API GET route, or use a parameter its path has not. */
export function badFirstCalls(route: Pick<RemoteRoute, 'path' | 'firstCalls'>, paths: readonly string[] = apiGetPaths): string[] {
  const params = new Set(segments(route.path).filter(isParam).map((p) => p.replace(/\?$/, '')));
  return (route.firstCalls ?? []).filter((call) => {
    const used = call.match(/:[A-Za-z]\w*/g) ?? [];
    return !namesApiRoute(call, paths) || used.some((p) => !params.has(p));
  });
}

/** routes.json as a remote's build and its test read it. */
export const publishedRoutesSchema = remoteRoutesFileSchema.check(
  z.superRefine((file, ctx) => {
    file.routes.forEach((route, i) => {
      for (const call of badFirstCalls(route)) {
        ctx.issues.push({
          code: 'custom',
          input: call,
          path: ['routes', i, 'firstCalls'],
          message: `${route.path}: the first call ${call} names no GET route of the API (shared/contracts/src/api/routes.ts), or a parameter the route's path has not`,
        });
      }
    });
  }),
);

/** The problems of a routes.json, one line each, or [] when it is right. */
export function routesFileProblems(file: unknown): string[] {
  const result = publishedRoutesSchema.safeParse(file);
  return result.success ? [] : result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
}
