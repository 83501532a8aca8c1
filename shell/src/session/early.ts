import { earlyCallKey, earlyProtocol } from '@app/contracts';

declare global {
  interface Window {
    /**
     * The calls the page's inline script started before the shell ran (see index.html), by
     * earlyCallKey; null when one was not made (the refresh it waited for failed).
     * The property's name is earlyProtocol.global.
     */
    __earlyCalls?: Record<string, Promise<Response | null>>;
  }
}

/**
 * fetch for the API client that answers a call the page already started (same method, URL and
 * language) with that answer, once; every other call, and one whose early answer never came,
 * goes to the network.
 */
export function fetchTakingEarlyCalls(calls = window[earlyProtocol.global], fetchImpl: typeof fetch = (input, init) => fetch(input, init)): typeof fetch {
  return (input, init) => {
    const key = earlyCallKey(init?.method ?? 'GET', input as string, (init?.headers as Record<string, string> | undefined)?.['Accept-Language']);
    const early = calls?.[key];
    if (!early) return fetchImpl(input, init);
    delete calls![key];
    return early.then((response) => response ?? fetchImpl(input, init));
  };
}
