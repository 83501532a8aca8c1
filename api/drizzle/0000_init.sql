CREATE TABLE "currencies" (
	"code" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"decimals" integer NOT NULL,
	"native" boolean DEFAULT false NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"usd_rate" numeric(38, 8) DEFAULT '0' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "currency_addresses" (
	"currency" text NOT NULL,
	"chain_id" integer NOT NULL,
	"address" text NOT NULL,
	CONSTRAINT "currency_addresses_currency_chain_id_pk" PRIMARY KEY("currency","chain_id")
);
--> statement-breakpoint
CREATE TABLE "dao_members" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"staked" numeric(78, 0) DEFAULT '0' NOT NULL,
	"voting_power" numeric(78, 0) DEFAULT '0' NOT NULL,
	"proposals_voted" integer DEFAULT 0 NOT NULL,
	"rewards_earned" numeric(78, 0) DEFAULT '0' NOT NULL,
	"rewards_claimed" numeric(78, 0) DEFAULT '0' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dao_values" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "deposits" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"pool" text NOT NULL,
	"currency" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"tx_hash" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_codes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"purpose" text NOT NULL,
	"code_hash" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "faq" (
	"id" integer PRIMARY KEY NOT NULL,
	"lang" text NOT NULL,
	"question" text NOT NULL,
	"answer" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "interest_accruals" (
	"user_id" uuid NOT NULL,
	"pool" text NOT NULL,
	"currency" text NOT NULL,
	"day" date NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	CONSTRAINT "interest_accruals_user_id_pool_currency_day_pk" PRIMARY KEY("user_id","pool","currency","day")
);
--> statement-breakpoint
CREATE TABLE "outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"to_address" text NOT NULL,
	"subject" text NOT NULL,
	"text_body" text NOT NULL,
	"html_body" text NOT NULL,
	"lang" text NOT NULL,
	"kind" text NOT NULL,
	"code" text,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "pool_assets" (
	"pool" text NOT NULL,
	"currency" text NOT NULL,
	"share_bps" integer NOT NULL,
	CONSTRAINT "pool_assets_pool_currency_pk" PRIMARY KEY("pool","currency")
);
--> statement-breakpoint
CREATE TABLE "pool_graph" (
	"pool" text NOT NULL,
	"day" date NOT NULL,
	"apy_bps" integer NOT NULL,
	"tvl_usd" numeric(38, 8) NOT NULL,
	CONSTRAINT "pool_graph_pool_day_pk" PRIMARY KEY("pool","day")
);
--> statement-breakpoint
CREATE TABLE "pools" (
	"name" text PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"apy_bps" integer NOT NULL,
	"risk_level" text NOT NULL,
	"description" text NOT NULL,
	"deposit_address" text,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rate_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "referral_levels" (
	"level" integer PRIMARY KEY NOT NULL,
	"reward_bps" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "referral_payouts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"currency" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "referral_ranks" (
	"rank" integer PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"capital_usd" numeric(38, 8) NOT NULL,
	"bonus_bps" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "referral_rewards" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"from_user_id" uuid,
	"level" integer NOT NULL,
	"currency" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"status" text DEFAULT 'earned' NOT NULL,
	"payout_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refresh_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"session_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"revoked_reason" text,
	"ip" text,
	"user_agent" text
);
--> statement-breakpoint
CREATE TABLE "siwe_nonces" (
	"nonce" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "system_settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY NOT NULL,
	"email" text,
	"password_hash" text,
	"name" text,
	"phone" text,
	"telegram" text,
	"avatar" text,
	"wallet_address" text,
	"role" text,
	"lang" text DEFAULT 'en' NOT NULL,
	"source" text,
	"referral_code" text NOT NULL,
	"referrer_id" uuid,
	"email_confirmed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "withdrawals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"pool" text NOT NULL,
	"currency" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"status" text DEFAULT 'requested' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "currency_addresses" ADD CONSTRAINT "currency_addresses_currency_currencies_code_fk" FOREIGN KEY ("currency") REFERENCES "public"."currencies"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dao_members" ADD CONSTRAINT "dao_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_pool_pools_name_fk" FOREIGN KEY ("pool") REFERENCES "public"."pools"("name") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "deposits" ADD CONSTRAINT "deposits_currency_currencies_code_fk" FOREIGN KEY ("currency") REFERENCES "public"."currencies"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "email_codes" ADD CONSTRAINT "email_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "interest_accruals" ADD CONSTRAINT "interest_accruals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pool_assets" ADD CONSTRAINT "pool_assets_pool_pools_name_fk" FOREIGN KEY ("pool") REFERENCES "public"."pools"("name") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pool_assets" ADD CONSTRAINT "pool_assets_currency_currencies_code_fk" FOREIGN KEY ("currency") REFERENCES "public"."currencies"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pool_graph" ADD CONSTRAINT "pool_graph_pool_pools_name_fk" FOREIGN KEY ("pool") REFERENCES "public"."pools"("name") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_payouts" ADD CONSTRAINT "referral_payouts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_rewards" ADD CONSTRAINT "referral_rewards_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_rewards" ADD CONSTRAINT "referral_rewards_from_user_id_users_id_fk" FOREIGN KEY ("from_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refresh_tokens" ADD CONSTRAINT "refresh_tokens_session_id_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_pool_pools_name_fk" FOREIGN KEY ("pool") REFERENCES "public"."pools"("name") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_currency_currencies_code_fk" FOREIGN KEY ("currency") REFERENCES "public"."currencies"("code") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deposits_tx_key" ON "deposits" USING btree ("tx_hash");--> statement-breakpoint
CREATE INDEX "deposits_user_idx" ON "deposits" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "email_codes_user_purpose_idx" ON "email_codes" USING btree ("user_id","purpose");--> statement-breakpoint
CREATE INDEX "outbox_status_idx" ON "outbox" USING btree ("status");--> statement-breakpoint
CREATE INDEX "outbox_to_idx" ON "outbox" USING btree ("to_address");--> statement-breakpoint
CREATE UNIQUE INDEX "referral_payouts_one_pending" ON "referral_payouts" USING btree ("user_id") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "referral_rewards_user_idx" ON "referral_rewards" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "refresh_tokens_session_idx" ON "refresh_tokens" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "users" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "users_wallet_key" ON "users" USING btree ("wallet_address");--> statement-breakpoint
CREATE UNIQUE INDEX "users_referral_code_key" ON "users" USING btree ("referral_code");--> statement-breakpoint
CREATE INDEX "users_referrer_idx" ON "users" USING btree ("referrer_id");--> statement-breakpoint
CREATE INDEX "withdrawals_user_idx" ON "withdrawals" USING btree ("user_id");