-- Events a notification type brings of its own (DESIGN.md, "Apple's 2025–2026 server
-- features"): consent_rescinded (RESCIND_CONSENT, about an Apple account: its AppTransaction's
-- `app_transaction_id`, naming the account's users), and the Advanced Commerce types
-- metadata_updated, migrated and price_changed (about one subscription, with its JSON).
--
-- The constraints are added NOT VALID: every stored row meets the narrower ones they replace,
-- so no scan of the outbox runs under the table's exclusive lock (docs/upgrading.md).
ALTER TABLE webhook_events ADD COLUMN app_transaction_id text;
ALTER TABLE webhook_events DROP CONSTRAINT webhook_events_type_check;
ALTER TABLE webhook_events ADD CONSTRAINT webhook_events_type_check CHECK (type IN (
    'subscription_created', 'renewed', 'auto_renew_disabled', 'auto_renew_enabled', 'product_changed',
    'billing_issue', 'billing_recovered', 'grace_period_expired', 'expired', 'refunded', 'refund_reversed',
    'renewal_extended', 'status_changed', 'user_linked', 'user_unlinked', 'purchase_created', 'purchase_revoked',
    'entitlement_changed', 'consent_rescinded', 'metadata_updated', 'migrated', 'price_changed')) NOT VALID;
ALTER TABLE webhook_events DROP CONSTRAINT webhook_events_subject_check;
ALTER TABLE webhook_events ADD CONSTRAINT webhook_events_subject_check CHECK (
    num_nonnulls(subscription, purchase, entitlement, app_transaction_id) = 1
    AND (entitlement IS NULL) = (app_user_id IS NULL)
    AND (entitlement IS NOT NULL OR app_transaction_id IS NOT NULL OR original_transaction_id IS NOT NULL)) NOT VALID;
