-- entitlement_changed (DESIGN.md, "Lifecycle events"): a customer's entitlement began or
-- ended, from a purchase, a refund, a link, a grant, or time (a subscription period, a
-- grace period, a pass, a trial or a grant ending with no new fact).
--
-- user_entitlements: the entitlements each user had at their last review, the baseline the
-- next review compares with. entitlement_reviews: users whose entitlements must be reviewed
-- at due_at (now, after a change of what they hold; or when a source of theirs next ends).
CREATE TABLE user_entitlements (
    app_user_id    text NOT NULL,
    entitlement_id text NOT NULL,
    PRIMARY KEY (app_user_id, entitlement_id)
);
CREATE TABLE entitlement_reviews (
    app_user_id text PRIMARY KEY,
    due_at      timestamptz NOT NULL
);
CREATE INDEX entitlement_reviews_due_idx ON entitlement_reviews (due_at);

-- An entitlement event is about one user, not one subscription or purchase: its body
-- carries the entitlement's state (`entitlement`), `app_user_id` names the user, and the
-- user's events go out in order as a subscription's do.
ALTER TABLE webhook_events DROP CONSTRAINT webhook_events_type_check;
ALTER TABLE webhook_events ADD CONSTRAINT webhook_events_type_check CHECK (type IN (
    'subscription_created', 'renewed', 'auto_renew_disabled', 'auto_renew_enabled', 'product_changed',
    'billing_issue', 'billing_recovered', 'grace_period_expired', 'expired', 'refunded', 'refund_reversed',
    'renewal_extended', 'status_changed', 'user_linked', 'user_unlinked', 'purchase_created', 'purchase_revoked',
    'entitlement_changed'));
ALTER TABLE webhook_events ADD COLUMN entitlement jsonb;
ALTER TABLE webhook_events ADD COLUMN app_user_id text;
ALTER TABLE webhook_events ALTER COLUMN original_transaction_id DROP NOT NULL;
ALTER TABLE webhook_events DROP CONSTRAINT webhook_events_subject_check;
ALTER TABLE webhook_events ADD CONSTRAINT webhook_events_subject_check CHECK (
    num_nonnulls(subscription, purchase, entitlement) = 1
    AND (entitlement IS NULL) = (app_user_id IS NULL)
    AND (entitlement IS NOT NULL OR original_transaction_id IS NOT NULL));
-- Per-user order ("is an earlier event of this user still unfinished?") and forgetting a user.
CREATE INDEX webhook_events_user_idx ON webhook_events (app_user_id, id) WHERE app_user_id IS NOT NULL;
