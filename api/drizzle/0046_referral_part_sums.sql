-- Each referrer's rewards of one part of a pool's day, kept from the part's commit until the day's
-- last part is done. The day's rows (referral_day_rewards) are then written once from them, in the
-- transaction that writes the day's marker, rather than added to by each part in turn: a part no
-- longer waits for another's commit to update the same referrers' rows. The part's ledger
-- transaction has credited rewards payable already, so until the day is marked these sums are owed
-- too: the solvency snapshot, the ledger check and the referrer's own figures count them.
CREATE TABLE "referral_part_sums" (
	"user_id" uuid NOT NULL,
	"pool" text NOT NULL,
	"day" date NOT NULL,
	"part" smallint NOT NULL,
	"currency" text NOT NULL,
	"bonus_bps" smallint NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	CONSTRAINT "referral_part_sums_pk" PRIMARY KEY ("user_id", "pool", "day", "part")
);
