/** @jest-environment jsdom */
import { IDLE_PREFETCH_TIMEOUT_MS, pagePrefetchList, prefetchWhenIdle } from './idlePrefetch';
import { FETCH_MINIMUM_DELAY_MS, afterMinimumDelay } from '../remotes/minimumDelay';

const prefetched = () => [...document.head.querySelectorAll('link[rel="prefetch"]')].map((l) => l.getAttribute('href'));

describe('idle prefetch (spec §9: 2000 ms)', () => {
  beforeEach(() => {
    jest.useFakeTimers();
    document.head.innerHTML = '';
  });
  afterEach(() => jest.useRealTimers());

  it('asks for nothing until the loaded page has been idle for 2000 ms, then prefetches each file once', () => {
    expect(IDLE_PREFETCH_TIMEOUT_MS).toBe(2000);
    const idle: Array<() => void> = [];
    const win = { setTimeout: (fn: () => void, ms: number) => setTimeout(fn, ms), requestIdleCallback: (fn: () => void) => idle.push(fn) };
    prefetchWhenIdle(['/cabinet-layout.1234abcd.js', 'http://localhost:3001/553.2e77d816.js'], document, win);
    jest.advanceTimersByTime(1999);
    expect(idle).toHaveLength(0);
    jest.advanceTimersByTime(1);
    expect(prefetched()).toEqual([]);
    idle.forEach((fn) => fn());
    expect(prefetched()).toEqual(['/cabinet-layout.1234abcd.js', 'http://localhost:3001/553.2e77d816.js']);
  });

  it('keeps only the URLs of the server’s list', () => {
    expect(pagePrefetchList(['/a.js', 'https://cdn.example/b.js', 'javascript:alert(1)', 3])).toEqual(['/a.js', 'https://cdn.example/b.js']);
    expect(pagePrefetchList(undefined)).toEqual([]);
  });
});

describe('fetch minimum delay (spec §9: 200 ms)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('holds a fast answer until the indicator has been shown for 200 ms, and no longer', async () => {
    expect(FETCH_MINIMUM_DELAY_MS).toBe(200);
    let clock = 1000;
    let settled = false;
    const done = afterMinimumDelay(Promise.resolve('module'), 1000, () => clock).then((v) => {
      settled = true;
      return v;
    });
    clock = 1030;
    await jest.advanceTimersByTimeAsync(169);
    expect(settled).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(settled).toBe(true);
    await expect(done).resolves.toBe('module');
  });

  it('lets a slow answer (or failure) through at once', async () => {
    const clock = 5000;
    const failed = afterMinimumDelay(Promise.reject(new Error('down')), 1000, () => clock);
    const outcome = failed.catch((e: Error) => e.message);
    await jest.advanceTimersByTimeAsync(0);
    await expect(outcome).resolves.toBe('down');
  });
});
