import { serveModule } from './build-modules';

export interface RunningServer {
  close: () => Promise<void>;
}

/** Serves a remote's build on a port for the length of a test, as its own deploy would. */
export async function serveRemote(dir: string, port: number): Promise<RunningServer> {
  const { serveRemote: serve } = await serveModule();
  const server = await serve({ dir, port });
  return {
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // The browser keeps idle keep-alive connections open; without this, close waits for them.
        server.closeAllConnections?.();
      }),
  };
}
