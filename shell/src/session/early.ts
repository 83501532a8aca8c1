/** A call the page's inline script started before the shell ran (see index.html). */
export interface EarlyCall {
  lang: string;
  /** null: not made (the refresh it waited for failed). */
  response: Promise<Response | null>;
}

declare global {
  interface Window {
    __earlyCalls?: Record<string, EarlyCall>;
  }
}

/**
 * fetch for the API client that answers a call the page already started (same method, URL and
 * language) with that answer, once; every other call, and one whose early answer never came,
 * goes to the network.
 */
export function fetchTakingEarlyCalls(calls: Record<string, EarlyCall> | undefined = globalThis.window?.__earlyCalls, fetchImpl: typeof fetch = (input, init) => fetch(input, init)): typeof fetch {
  return (input, init) => {
    const key = `${init?.method ?? 'GET'} ${String(input)}`;
    const early = calls?.[key];
    if (!early) return fetchImpl(input, init);
    delete calls![key];
    const lang = (init?.headers as Record<string, string> | undefined)?.['Accept-Language'];
    if (lang !== undefined && lang !== early.lang) return fetchImpl(input, init);
    return early.response.then((response) => response ?? fetchImpl(input, init));
  };
}
