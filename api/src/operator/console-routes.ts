// The console's own reads beside the operator API's: the money settings in one answer (each
// currency's payout rule, the withdrawal limits, every pool's APY schedule). Reads only: every
// change still goes through the operator API's own calls, with a fresh code and an audit entry.
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { apyHistory } from '../interest';
import { payoutRules, ruleFor, withdrawalLimits } from '../payouts';
import type { Db } from '../db/client';

export function operatorConsoleRoutes(app: FastifyInstance, db: Db, opts: { onRequest: onRequestHookHandler; schema: Record<string, unknown> }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/operator/money-settings', opts, async () => {
    const [rules, limits, apy] = await Promise.all([payoutRules(db), withdrawalLimits(db), apyHistory(db)]);
    return {
      payouts: Object.keys(rules)
        .sort()
        .map((currency) => ({ currency, ...ruleFor(rules, currency) })),
      limits,
      apy,
    };
  });
}
