// The operator API's own listener: the same app, reached through a port of its own. Requests that
// came through it are marked; with OPERATOR_PORT set, an operator call through the public port and
// any other call through the operator port are answered as not found.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { operatorBasePath } from '@app/contracts';

const viaOperatorPort = new WeakSet<IncomingMessage>();

export const isOperatorPath = (url: string) => url === operatorBasePath || url.startsWith(`${operatorBasePath}/`) || url.startsWith(`${operatorBasePath}?`);
export const cameThroughOperatorPort = (raw: IncomingMessage) => viaOperatorPort.has(raw);

/** Listens on the operator port; answers the server, for the caller to close before the app. */
export async function startOperatorListener(app: FastifyInstance, port: number, host: string): Promise<Server> {
  const server = createServer((req, res) => {
    viaOperatorPort.add(req);
    app.routing(req, res);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return server;
}
