CREATE TABLE "dao_proposals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"choices" jsonb NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"snapshot_at" timestamp with time zone NOT NULL,
	"quorum_usd" numeric(38, 8) DEFAULT '0' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
-- One vote per user and proposal: a newer signed vote replaces the older. The signed message is kept whole.
CREATE TABLE "dao_votes" (
	"proposal_id" bigint NOT NULL,
	"user_id" uuid NOT NULL,
	"voter" text NOT NULL,
	"choice" integer NOT NULL,
	"reason" text NOT NULL,
	"signed_at" bigint NOT NULL,
	"power_usd" numeric(38, 8) NOT NULL,
	"message" jsonb NOT NULL,
	"signature" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dao_votes_proposal_id_user_id_pk" PRIMARY KEY("proposal_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "dao_votes" ADD CONSTRAINT "dao_votes_proposal_id_dao_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."dao_proposals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dao_votes" ADD CONSTRAINT "dao_votes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dao_votes_user_idx" ON "dao_votes" USING btree ("user_id");
