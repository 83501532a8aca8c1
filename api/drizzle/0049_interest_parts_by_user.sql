-- A pool day's accrual is split by the position holders' user ids (quantiles of a sample of them),
-- as the referral step splits its parts, rather than by account id. The referral step then takes
-- the accrual's bounds for its own, and each of its parts reads the legs of its own part's interest
-- transaction instead of every leg of the day. Days split before keep their account-id bounds
-- (user_bounds null), so a rerun of such a day splits it as its first run did.
ALTER TABLE "interest_day_parts" ADD COLUMN "user_bounds" uuid[];
