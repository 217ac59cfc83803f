-- Outbound webhooks (the event outbox) and receipt retention.
--
-- webhook_events: one row per event for the app's backend, written in the same transaction
-- as the change it reports (a rollback takes the event with it). Rows are written for every
-- app; a process whose app has no webhook URL ends them `dead` with that reason, so
-- `subscriptionctl webhooks replay --dead` sends them once a URL is configured.
-- `subscription` is the subscription's state at the change; the body is rendered from this
-- row alone (deterministically), so every attempt of an event sends the same bytes.
CREATE TABLE webhook_events (
    id                      bigserial PRIMARY KEY,
    event_id                text NOT NULL UNIQUE,           -- 'evt_' + 32 hex digits
    type                    text NOT NULL CHECK (type IN ('subscription_created', 'status_changed', 'user_linked')),
    bundle_id               text NOT NULL,
    environment             text NOT NULL CHECK (environment IN ('Production', 'Sandbox')),
    original_transaction_id text NOT NULL,
    app_user_ids            text[] NOT NULL DEFAULT '{}',
    previous_status         text,
    subscription            jsonb NOT NULL,
    state                   text NOT NULL DEFAULT 'pending'
                            CHECK (state IN ('pending', 'retrying', 'delivered', 'dead')),
    attempts                integer NOT NULL DEFAULT 0,
    next_attempt_at         timestamptz NOT NULL DEFAULT now(),
    claimed_at              timestamptz,
    last_error              text,                            -- a short excerpt, never the receiver's whole body
    last_status             integer,                         -- the receiver's HTTP status of the last attempt
    created_at              timestamptz NOT NULL DEFAULT now(),
    delivered_at            timestamptz,
    updated_at              timestamptz NOT NULL DEFAULT now()
);
-- The delivery claim: due, unfinished events in order.
CREATE INDEX webhook_events_due_idx ON webhook_events (next_attempt_at, id)
    WHERE state IN ('pending', 'retrying');
-- Per-subscription order: "is an earlier event of this subscription still unfinished?"
CREATE INDEX webhook_events_subscription_idx ON webhook_events (environment, original_transaction_id, id)
    WHERE state IN ('pending', 'retrying');
CREATE INDEX webhook_events_state_created_idx ON webhook_events (state, created_at DESC);

-- Retention: when a notification's receipts were removed (replays then say so).
ALTER TABLE notifications
    ADD COLUMN receipt_removed_at timestamptz;

-- One row per retention run that changed something (and the latest run that did not).
CREATE TABLE retention_runs (
    id                   bigserial PRIMARY KEY,
    ran_at               timestamptz NOT NULL DEFAULT now(),
    cutoff               timestamptz NOT NULL,              -- notifications processed before this were stripped
    receipts_removed     integer NOT NULL,                  -- notification bodies that lost receipts
    signed_removed       integer NOT NULL,                  -- v2 bodies that lost signedPayload (RETENTION_DROP_SIGNED)
    drop_signed          boolean NOT NULL
);
