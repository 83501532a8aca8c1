CREATE TABLE IF NOT EXISTS "tutorial_dismissals" (
	"user_id" uuid PRIMARY KEY NOT NULL REFERENCES "users"("id"),
	"dismissed_at" timestamp with time zone DEFAULT now() NOT NULL
);
