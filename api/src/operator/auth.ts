import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { apiMessages as M } from '@app/contracts';
import { ApiError, unauthorized } from '../http/errors';

export type OperatorActor = { actor: string };

declare module 'fastify' {
  interface FastifyRequest {
    operator: OperatorActor | null;
  }
}

const same = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * Who may call the operator routes: the CLI with the operator key (X-Operator-Key), or a signed-in
 * user whose role is `operator` (the API's own bearer check). Anyone else: 401 or 403.
 */
export function operatorGuard(operatorKey: string | null, authenticate: (req: FastifyRequest) => Promise<void>) {
  return async (req: FastifyRequest, _reply: FastifyReply) => {
    const key = req.headers['x-operator-key'];
    if (typeof key === 'string' && key.length) {
      if (!operatorKey || !same(key, operatorKey)) throw unauthorized(M.loginRequired);
      req.operator = { actor: 'operator-key' };
      return;
    }
    await authenticate(req);
    const user = req.auth?.user;
    if (!user || user.role !== 'operator') throw new ApiError(403, M.forbidden, 'FORBIDDEN');
    req.operator = { actor: `user:${user.id}` };
  };
}
