-- Who owns a purchase (DESIGN.md, "Who owns a purchase"): links follow each app's
-- link_policy, and a user who loses a purchase gets a user_unlinked event.
ALTER TABLE webhook_events DROP CONSTRAINT webhook_events_type_check;
ALTER TABLE webhook_events ADD CONSTRAINT webhook_events_type_check
    CHECK (type IN ('subscription_created', 'status_changed', 'user_linked', 'user_unlinked'));

-- The Apple account behind a purchase, where Apple names one: a StoreKit 2 transaction's
-- appTransactionId (one per Apple account and app, opaque: never the account's name).
-- `subscriptionctl suspicious` and the subscriber JSON's apple_accounts count them.
ALTER TABLE transactions ADD COLUMN app_transaction_id text;
