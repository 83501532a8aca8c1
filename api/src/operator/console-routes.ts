// The console's money settings: the settings in one answer (each currency's payout rule, the
// withdrawal limits, every pool's APY schedule), and their changes with four eyes
// (setting-changes.ts): a preview (no code: it changes nothing), a proposal, the list, and a
// second operator's approval or anyone's rejection, each with a fresh code and an audit entry.
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { operatorIdParams, settingChangeBodySchema, settingChangesQuery, settingRejectBodySchema } from '@app/contracts';
import { apyHistory } from '../interest';
import { payoutRules, ruleFor, withdrawalLimits } from '../payouts';
import type { Db } from '../db/client';
import type { Approver } from '../payouts';
import { approveChange, listChanges, previewChange, proposeChange, rejectChange } from './setting-changes';

export function operatorConsoleRoutes(
  app: FastifyInstance,
  db: Db,
  opts: { onRequest: onRequestHookHandler; schema: Record<string, unknown> },
  approver: (req: { operator: { actor: string; operator: { id: string } } | null }) => Approver,
) {
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

  const schema = opts.schema;
  r.post('/operator/setting-changes/preview', { ...opts, config: { operatorRead: true }, schema: { ...schema, body: settingChangeBodySchema } }, async (req) => {
    const { before: _before, after: _after, ...preview } = await previewChange(db, req.body);
    return preview;
  });
  r.post('/operator/setting-changes', { ...opts, schema: { ...schema, body: settingChangeBodySchema } }, async (req) => proposeChange(db, approver(req), req.body));
  r.get('/operator/setting-changes', { ...opts, schema: { ...schema, querystring: settingChangesQuery } }, async (req) => ({ items: await listChanges(db, req.query.status) }));
  r.post('/operator/setting-changes/:id/approve', { ...opts, schema: { ...schema, params: operatorIdParams } }, async (req) => approveChange(db, approver(req), req.params.id));
  r.post('/operator/setting-changes/:id/reject', { ...opts, schema: { ...schema, params: operatorIdParams, body: settingRejectBodySchema } }, async (req) =>
    rejectChange(db, approver(req), req.params.id, req.body.reason),
  );
}
