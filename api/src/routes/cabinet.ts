import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { apiRoutes } from '@app/contracts';
import { tutorialDismissals } from '../db/schema';
import { addRoute } from '../http/route';
import { activityExportJson, activityPage, asOfDay, cabinetRevision, portfolioSummary, sharedReads } from '../portfolio';
import type { Services } from '../services';

/** The cabinet's reads: the dashboard's figures, the activity list and its CSV, the tutorial and a revision to poll. */
export function cabinetRoutes(app: FastifyInstance, s: Services) {
  const db = s.db;
  const required = () => ({ deposit: s.config.deposits.confirmations, withdrawal: s.config.money.payoutConfirmations });

  // The reads below are answered from memory while the user's rows do not change (http/user-reads.ts).
  const shared = sharedReads(db, s.prices, s.figures);
  addRoute(app, apiRoutes.cabinetSummary, async ({ auth, req }) => s.reads.read(auth.user.id, req, () => portfolioSummary(db, shared, auth.user.id)));

  addRoute(app, apiRoutes.cabinetActivity, async ({ query, auth, req }) => s.reads.read(auth.user.id, req, () => activityPage(db, auth.user.id, query, required())));

  addRoute(app, apiRoutes.cabinetActivityExport, async ({ query, auth, reply }) => {
    const format = query.format ?? 'activity';
    const filename = `${format === 'koinly' ? 'koinly' : 'activity'}-${await asOfDay(db)}.csv`;
    // Streamed: the server holds one batch of rows however long the history is.
    void reply.type('application/json; charset=utf-8').send(Readable.from(activityExportJson(db, auth.user.id, required(), filename, format)));
    return reply as never;
  });

  addRoute(app, apiRoutes.cabinetTutorial, async ({ body, auth }) => {
    if (body.dismissed) await db.insert(tutorialDismissals).values({ userId: auth.user.id }).onConflictDoNothing();
    else await db.delete(tutorialDismissals).where(eq(tutorialDismissals.userId, auth.user.id));
    return { dismissed: body.dismissed };
  });

  addRoute(app, apiRoutes.cabinetRevision, async ({ auth, req }) => s.reads.read(auth.user.id, req, async () => ({ revision: await cabinetRevision(db, auth.user.id) })));
}
