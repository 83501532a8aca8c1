import type { FastifyReply, FastifyRequest } from 'fastify';
import { apiMessages as M, operatorKeyHeader, operatorTotpHeader } from '@app/contracts';
import type { Db } from '../db/client';
import { unauthorized } from '../http/errors';
import { actorOf, keyOperator, requireFreshTotp, sessionOperator, type Operator } from './identity';

export type OperatorActor = { actor: string; operator: Operator };

declare module 'fastify' {
  interface FastifyRequest {
    operator: OperatorActor | null;
  }
  interface FastifyContextConfig {
    /** A POST that changes nothing (a preview): no fresh code asked. */
    operatorRead?: boolean;
  }
}

/**
 * Who may call the operator routes: a named operator, through the console's session
 * (`Authorization: Operator <token>`, ended after idling) or the command line's key
 * (`X-Operator-Key: <name>.<key>`). A user's session, even an operator's, opens nothing here.
 * Every change (any method but GET, and no route marked `operatorRead`) also needs the operator's current TOTP code (X-Operator-Totp):
 * a stolen session or key alone moves nothing.
 */
export function operatorGuard(db: Db) {
  return async (req: FastifyRequest, _reply: FastifyReply) => {
    const key = req.headers[operatorKeyHeader];
    const session = /^Operator ([A-Za-z0-9_-]{20,100})$/.exec(req.headers.authorization ?? '')?.[1];
    let op: Operator | null = null;
    if (typeof key === 'string' && key.length) {
      op = await keyOperator(db, key);
      if (!op) throw unauthorized(M.loginRequired);
    } else if (session) {
      op = await sessionOperator(db, session);
      if (!op) throw unauthorized(M.operatorSessionEnded, 'OPERATOR_SESSION_ENDED');
    } else throw unauthorized(M.loginRequired);
    if (req.method !== 'GET' && req.method !== 'HEAD' && !req.routeOptions.config?.operatorRead) {
      const code = req.headers[operatorTotpHeader];
      requireFreshTotp(op, typeof code === 'string' ? code : undefined);
    }
    req.operator = { actor: actorOf(op), operator: op };
  };
}
