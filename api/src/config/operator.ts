import * as z from 'zod/mini';
import { int, type ConfigDoc } from './fields';
import type { EnvValues } from './index';

/** Where the operator API listens: its own port, never through the public proxy. */
export const operatorEnv = z.object({
  /** The operator API's own port; when set, the public port answers no operator call. Required in production. */
  OPERATOR_PORT: z.optional(int(1, 65535)),
  /** The address it binds: loopback unless the deployment names its internal network's. */
  OPERATOR_HOST: z._default(z.string().check(z.minLength(1)), '127.0.0.1'),
});

export const operatorDocs: ConfigDoc[] = [
  {
    vars: ['OPERATOR_PORT', 'OPERATOR_HOST'],
    default: 'none (operator calls on the API port, outside production); `127.0.0.1`',
    meaning: 'the operator API\'s own listen address: with it set the public port answers no operator call. Required in production, and different from `API_PORT`. Operators are named accounts (`npm run operator:enrol`)',
  },
];

export type OperatorConfig = {
  /** Null: the operator calls share the public port (tests and `npm run dev` only). */
  operatorPort: number | null;
  operatorHost: string;
};

export function operatorProblems(e: EnvValues): string[] {
  if (!e.OPERATOR_PORT) return ['OPERATOR_PORT is required in production: the operator API listens apart from the public one'];
  return e.OPERATOR_PORT === e.API_PORT ? ['OPERATOR_PORT must differ from API_PORT'] : [];
}

export function operatorConfig(e: EnvValues): OperatorConfig {
  return { operatorPort: e.OPERATOR_PORT ?? null, operatorHost: e.OPERATOR_HOST };
}
