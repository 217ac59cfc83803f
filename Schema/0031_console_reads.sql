-- The console's reads (DESIGN.md, "Console"): a customer's timeline is paged newest first
-- by (time, key), and each of its sources is read through an index in exactly that order,
-- so a page stops after the rows it shows: the hundredth page costs what the first does.
-- Where an index of the same leading columns existed it is replaced, not doubled (the longer
-- one serves every lookup the shorter did), so the writes pay for at most one more entry.

-- A purchase's transactions by purchase date (the timeline; the newest product in search).
-- Transaction ids compare byte by byte (COLLATE "C"), whatever the database's collation.
DROP INDEX transactions_original_idx;
CREATE INDEX transactions_original_idx ON transactions
    (environment, original_transaction_id, purchase_date, transaction_id COLLATE "C");

-- Search by app account token: the purchases that carry it (stored in lower case).
CREATE INDEX transactions_app_account_token_idx ON transactions (app_account_token)
    WHERE app_account_token IS NOT NULL;

-- A subscription's notifications, and a user's queued receipts, by arrival.
DROP INDEX notifications_original_transaction_idx;
CREATE INDEX notifications_original_transaction_idx ON notifications (original_transaction_id, received_at, id)
    WHERE original_transaction_id IS NOT NULL;
DROP INDEX notifications_app_user_idx;
CREATE INDEX notifications_app_user_idx ON notifications (app_user_id, received_at, id)
    WHERE app_user_id IS NOT NULL;

-- The newest processed notification (the console's pipeline) without reading them all;
-- retention's "processed before the cutoff" finds its rows here too.
CREATE INDEX notifications_processed_idx ON notifications (processed_at) WHERE state = 'processed';

-- A subscription's status changes by time (status_events_original_idx was by id alone).
DROP INDEX status_events_original_idx;
CREATE INDEX status_events_original_idx ON status_events (environment, original_transaction_id, occurred_at, id);

-- A subscription's and a user's webhook events by creation. The delivery's own indexes on
-- these columns are partial (unfinished events only) and stay as they are.
CREATE INDEX webhook_events_subscription_created_idx ON webhook_events (environment, original_transaction_id, created_at, id)
    WHERE original_transaction_id IS NOT NULL;
CREATE INDEX webhook_events_user_created_idx ON webhook_events (app_user_id, created_at, id)
    WHERE app_user_id IS NOT NULL;

-- The audit rows naming a user, by time (audit_log_user_idx was by id alone).
DROP INDEX audit_log_user_idx;
CREATE INDEX audit_log_user_idx ON audit_log (app_user_id, occurred_at, id);
