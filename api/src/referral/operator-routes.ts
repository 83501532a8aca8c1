import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { currencyCodeSchema } from '@app/contracts';
import type { Db } from '../db/client';
import { utcDay } from '../interest';
import { MAX_LEVELS, MAX_VESTING_DAYS, configHistory, configInForce, setConfig } from './config';

const isoDay = z.iso.date({ error: 'expected a calendar date YYYY-MM-DD' });
const bps = z.int().check(z.gte(0), z.lte(10_000));
const configBody = z.object({
  levels: z.optional(z.array(bps).check(z.minLength(1), z.maxLength(MAX_LEVELS))),
  ranks: z.optional(
    z
      .array(z.object({ title: z.string().check(z.minLength(1), z.maxLength(40)), capitalUsd: z.string().check(z.maxLength(40)), bonusBps: bps }))
      .check(z.minLength(1), z.maxLength(100)),
  ),
  currency: z.optional(currencyCodeSchema),
  vestingDays: z.optional(z.int().check(z.gte(0), z.lte(MAX_VESTING_DAYS))),
  effectiveFrom: z.optional(isoDay),
});

/**
 * The programme's configuration under /api/v1/operator/referral (the CLI's `referral …` commands).
 * A version set here in one step passes `direct` first: beyond the local chain it refuses, and a
 * version is a setting change another operator approves (operator/setting-changes.ts).
 */
export function referralOperatorRoutes(
  app: FastifyInstance,
  db: Db,
  opts: { onRequest: onRequestHookHandler; schema: Record<string, unknown> },
  actor: (req: { operator: { actor: string } | null }) => string,
  direct: () => void,
) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/operator/referral', opts, async () => ({ current: await configInForce(db, utcDay(new Date())), history: await configHistory(db) }));
  r.post('/operator/referral', { ...opts, schema: { ...opts.schema, body: configBody } }, async (req) => {
    direct();
    return setConfig(db, actor(req), req.body, utcDay(new Date()));
  });
}
