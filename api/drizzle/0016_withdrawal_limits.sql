-- Withdrawal limits (issue 21, findings 2 and 3): each request counts the account's recent requests
-- and sums what the account, and the destination address, withdrew over the approval window.
-- These indexes keep those reads to the rows of that window.
CREATE INDEX "withdrawals_user_created_idx" ON "withdrawals" USING btree ("user_id", "created_at");--> statement-breakpoint
CREATE INDEX "withdrawals_destination_idx" ON "withdrawals" USING btree ("to_address", "currency", "created_at");
