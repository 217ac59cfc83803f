-- Lifecycle events (DESIGN.md, "Lifecycle events"): each derived from the change of a
-- subscription's stored state, with the details Apple gives (the expiration intent or
-- revocation reason, the products of a product change, whether access continues during a
-- billing issue).
ALTER TABLE webhook_events DROP CONSTRAINT webhook_events_type_check;
ALTER TABLE webhook_events ADD CONSTRAINT webhook_events_type_check CHECK (type IN (
    'subscription_created', 'renewed', 'auto_renew_disabled', 'auto_renew_enabled', 'product_changed',
    'billing_issue', 'billing_recovered', 'grace_period_expired', 'expired', 'refunded', 'refund_reversed',
    'renewal_extended', 'status_changed', 'user_linked', 'user_unlinked'));
ALTER TABLE webhook_events
    ADD COLUMN reason text,
    ADD COLUMN from_product text,
    ADD COLUMN to_product text,
    ADD COLUMN access_continues boolean;

-- Time moves status too: when a subscription's next status change is due (its period or
-- grace period ends) with no new fact, the sweep recomputes it and writes its events.
-- Kept by every recompute; rows stored before this migration get theirs from what they say.
ALTER TABLE subscriptions ADD COLUMN due_at timestamptz;
UPDATE subscriptions SET due_at = CASE
    WHEN status = 'active' THEN expires_at
    WHEN status = 'grace_period' THEN grace_period_expires_at
END;
CREATE INDEX subscriptions_due_idx ON subscriptions (due_at) WHERE due_at IS NOT NULL;

-- A replayed event gets the whole retry window again, counted from the replay.
ALTER TABLE webhook_events ADD COLUMN replayed_at timestamptz;
