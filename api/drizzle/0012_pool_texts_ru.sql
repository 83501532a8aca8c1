-- A pool's title and strategy text per language other than English (English stays in "pools").
CREATE TABLE IF NOT EXISTS "pool_texts" (
	"pool" text NOT NULL REFERENCES "pools"("name"),
	"lang" text NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	CONSTRAINT "pool_texts_pool_lang_pk" PRIMARY KEY("pool","lang")
);
