-- Each brand mails as its own sender (brand.json `mail`): the sender is kept with the mail, as
-- chosen when it was queued, so a brand edited meanwhile does not change who a queued mail is from.
-- Null: the configured MAIL_FROM (mail queued before this column).
ALTER TABLE "outbox" ADD COLUMN "from_address" text;
