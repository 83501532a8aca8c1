-- The referral step of a pool's day split into parts by referee, as the accrual is (0013): each part
-- one statement in its own session and its own ledger transaction, run in parallel.
--
-- How the day is split, fixed by whoever starts the day first, so a rerun or a second replica splits
-- it the same way: part k holds the referees whose user id is in [bounds[k], bounds[k+1]) (the
-- first part from the lowest id, the last to the highest).
CREATE TABLE "referral_day_parts" (
	"pool" text NOT NULL,
	"day" date NOT NULL,
	"bounds" uuid[] NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "referral_day_parts_pk" PRIMARY KEY ("pool", "day")
);
--> statement-breakpoint
-- A part done: written in the part's own transaction with its rewards, so a part is done once; the
-- day's marker (referral_reward_days) is written from these when every part is done. Days rewarded
-- before 0043 were one part and have no row here: their marker holds the same figures.
CREATE TABLE "referral_reward_parts" (
	"pool" text NOT NULL,
	"day" date NOT NULL,
	"part" smallint NOT NULL,
	"rewards" integer NOT NULL,
	"total" numeric(78, 0) NOT NULL,
	"withheld" uuid[],
	"transaction_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "referral_reward_parts_pk" PRIMARY KEY ("pool", "day", "part")
);
