import type { FastifyBaseLogger } from 'fastify';

/**
 * Work done after the answer was sent, e.g. mailing a code: the answer then takes the same time
 * whether there was anything to do or not. `idle()` lets tests and the dev outbox wait for it.
 */
export function createBackground(log: FastifyBaseLogger) {
  const running = new Set<Promise<void>>();
  return {
    run(name: string, work: () => Promise<void>) {
      const p = work()
        .catch((err) => log.error({ err, task: name }, 'background task failed'))
        .finally(() => running.delete(p));
      running.add(p);
    },
    async idle() {
      while (running.size) await Promise.all([...running]);
    },
  };
}
export type Background = ReturnType<typeof createBackground>;
