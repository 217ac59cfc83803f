-- purchase_created / purchase_revoked: events of one-time purchases (consumables,
-- non-consumables, non-renewing subscriptions). Their body carries the purchase JSON instead
-- of the subscription JSON; an event has exactly one of the two.
ALTER TABLE webhook_events DROP CONSTRAINT webhook_events_type_check;
ALTER TABLE webhook_events ADD CONSTRAINT webhook_events_type_check CHECK (type IN (
    'subscription_created', 'renewed', 'auto_renew_disabled', 'auto_renew_enabled', 'product_changed',
    'billing_issue', 'billing_recovered', 'grace_period_expired', 'expired', 'refunded', 'refund_reversed',
    'renewal_extended', 'status_changed', 'user_linked', 'user_unlinked', 'purchase_created', 'purchase_revoked'));
ALTER TABLE webhook_events ALTER COLUMN subscription DROP NOT NULL;
ALTER TABLE webhook_events ADD COLUMN purchase jsonb;
ALTER TABLE webhook_events ADD CONSTRAINT webhook_events_subject_check CHECK ((subscription IS NULL) <> (purchase IS NULL));
