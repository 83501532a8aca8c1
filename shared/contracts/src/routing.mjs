// The one route matcher and locale parser, for the shell in the browser and for its server (plain
// Node, which imports this file as it is: hence JavaScript, typed by routing.d.mts).

/** English has no prefix; Russian lives under /ru (spec §2). */
export function localeOfPath(pathname) {
  return pathname === '/ru' || pathname.startsWith('/ru/') ? 'ru' : 'en';
}

/** The path without its locale prefix, always starting with '/'. */
export function stripLocale(pathname) {
  return localeOfPath(pathname) === 'ru' ? pathname.slice(3) || '/' : pathname;
}

const compiled = new Map();

/**
 * A route pattern of a remote ("/cabinet/pools/:name", "/docs/*", "/a/:b?") as a test of a path
 * without its locale, as the router reads it: case-insensitive, a trailing slash allowed.
 */
function patternOf(pattern) {
  let regex = compiled.get(pattern);
  if (regex) return regex;
  const source = pattern
    .split('/')
    .map((part) => {
      if (part === '*') return '.*';
      // A parameter is a named group, for the calls that use it (firstCalls).
      const param = /^:([A-Za-z]\w*)(\?)?$/.exec(part);
      if (param) return `(?<${param[1]}>[^/]${param[2] ? '*' : '+'})`;
      return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  try {
    regex = new RegExp(`^${source}/?$`, 'i');
  } catch {
    // A parameter named twice: the same test without the names.
    regex = new RegExp(`^${source.replace(/\(\?<\w+>/g, '(')}/?$`, 'i');
  }
  compiled.set(pattern, regex);
  return regex;
}

/** The route's parameters if the path (without its locale) matches the pattern, else undefined. */
export function matchRoute(pattern, path) {
  const match = patternOf(pattern).exec(path);
  return match ? { ...match.groups } : undefined;
}

/** The remote owning a path (with or without its locale), the route it matched and its parameters. */
export function routeOwner(manifest, pathname) {
  const path = stripLocale(pathname);
  for (const remote of manifest?.remotes ?? []) {
    for (const route of remote?.routes ?? []) {
      if (typeof route?.path !== 'string') continue;
      const params = matchRoute(route.path, path);
      if (params) return { remote, route, params };
    }
  }
  return undefined;
}
