-- Issue 23, goal 2: after a day of interest the incremental ledger check adds to the checked sums of
-- every position. Room left on each page lets each row's new version go on its own page (a HOT
-- update: the primary key, never changed, gets no new entry); the table is rewritten once to make it.
ALTER TABLE "ledger_checked_accounts" SET (fillfactor = 50);--> statement-breakpoint
CLUSTER "ledger_checked_accounts" USING "ledger_checked_accounts_pkey";--> statement-breakpoint
ANALYZE "ledger_checked_accounts";
