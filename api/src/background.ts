import type { FastifyBaseLogger, FastifyReply } from 'fastify';

/**
 * Work done after the answer was sent, e.g. mailing a code: the answer then takes the same time
 * whether there was anything to do or not. `idle()` lets tests wait for it.
 */
export function createBackground(log: FastifyBaseLogger) {
  const running = new Set<Promise<void>>();
  return {
    /** Runs `work` once `after` settles (e.g. the answer went out). */
    run(name: string, work: () => Promise<void>, after: Promise<void> = Promise.resolve()) {
      const p = after
        .then(work)
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

/**
 * Settles once the answer has left: the embedded database runs on this thread, so work started
 * earlier would delay the answer and give away by timing that there was work to do.
 */
export function afterReply(reply: FastifyReply): Promise<void> {
  return new Promise((resolve) => {
    const done = () => setImmediate(resolve);
    reply.raw.once('finish', done);
    reply.raw.once('close', done);
  });
}
