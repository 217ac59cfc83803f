-- Who owns a purchase (DESIGN.md, "Who owns a purchase"): links follow each app's
-- link_policy, and a user who loses a purchase gets a user_unlinked event.
ALTER TABLE webhook_events DROP CONSTRAINT webhook_events_type_check;
ALTER TABLE webhook_events ADD CONSTRAINT webhook_events_type_check
    CHECK (type IN ('subscription_created', 'status_changed', 'user_linked', 'user_unlinked'));

-- The Apple account behind a purchase, where Apple names one: a StoreKit 2 transaction's
-- appTransactionId (one per Apple account and app, opaque: never the account's name).
-- `subscriptionctl suspicious` and the subscriber JSON's apple_accounts count them.
ALTER TABLE transactions ADD COLUMN app_transaction_id text;

-- Forgetting a user removes its id from every stored webhook event; this finds them.
CREATE INDEX webhook_events_users_idx ON webhook_events USING gin (app_user_ids);

-- The namespace of the app account tokens this installation hands out (UUIDv5 of the app
-- and the user in it): random per installation, so nobody can compute another user's token.
CREATE TABLE app_account_token_namespace (
    only_row  boolean PRIMARY KEY DEFAULT true CHECK (only_row),
    namespace uuid NOT NULL DEFAULT gen_random_uuid()
);
INSERT INTO app_account_token_namespace DEFAULT VALUES;
