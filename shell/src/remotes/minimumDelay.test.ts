import { afterMinimumDelay } from './minimumDelay';

describe('fetch minimum delay (spec §9: 200 ms)', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('holds a fast answer until the indicator has been shown for 200 ms, and no longer', async () => {
    let clock = 1000;
    let settled = false;
    const done = afterMinimumDelay(Promise.resolve('module'), 1000, () => clock).then((v) => {
      settled = true;
      return v;
    });
    // 30 ms went by before the answer came: 170 more make the 200.
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
