// The signer's small interface, on a loopback port: POST /v1/sign with a SignRequest answers the
// signed transaction, or 403 with the reason it was refused; POST /v1/sign-message signs a
// proof-of-solvency control message of an address it holds (`{ address, message }`) or, with
// `{ kind: 'solvency', message }`, a snapshot's header with the solvency key; GET /v1/addresses.
// A KMS or HSM can stand behind the same interface in production.
import { createServer, type Server } from 'node:http';
import { Refused, type Signer } from './signer';
import { SIGN_KINDS, type SignRequest } from './policy';

const MAX_BODY = 64 * 1024;

export function serveSigner(signer: Signer, port: number, host = '127.0.0.1'): Promise<Server> {
  const server = createServer((req, res) => {
    const answer = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.method === 'GET' && req.url === '/v1/addresses') return answer(200, { addresses: signer.addresses, ...signer.declared });
    if (req.method !== 'POST' || (req.url !== '/v1/sign' && req.url !== '/v1/sign-message')) return answer(404, { error: 'not found' });
    const refusedOr500 = (err: unknown) => (err instanceof Refused ? answer(403, { refused: err.reason, ...(err.retry ? { retry: err.retry } : {}) }) : answer(500, { error: 'the signer failed' }));
    let raw = '';
    req.on('data', (chunk: Buffer) => {
      raw += chunk.toString('utf8');
      if (raw.length > MAX_BODY) req.destroy();
    });
    req.on('end', () => {
      if (req.url === '/v1/sign-message') {
        let body: { kind?: unknown; address?: unknown; message?: unknown };
        try {
          body = JSON.parse(raw) as typeof body;
        } catch {
          body = {};
        }
        if (body.kind === 'solvency' && typeof body.message === 'string') return void signer.signHeader(body.message).then((signed) => answer(200, signed), refusedOr500);
        if ((body.kind !== undefined && body.kind !== 'control') || typeof body.address !== 'string' || typeof body.message !== 'string') return answer(400, { error: 'expected an address and a message' });
        return void signer.signMessage(body.address, body.message).then((signed) => answer(200, signed), refusedOr500);
      }
      let request: SignRequest;
      try {
        request = JSON.parse(raw) as SignRequest;
        if (!request?.tx || !SIGN_KINDS.includes(request.kind)) throw new Error('bad request');
      } catch {
        return answer(400, { error: 'expected a sign request' });
      }
      signer.sign(request).then((signed) => answer(200, signed), refusedOr500);
    });
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}
