-- subscriptiond initial schema.
-- Every data row carries `environment` ('Production' or 'Sandbox'): the two never mix.
-- Applied by `subscriptionctl migrate` inside one transaction, recorded in schema_migrations.

CREATE TABLE IF NOT EXISTS schema_migrations (
    version     text PRIMARY KEY,              -- '0001'
    name        text NOT NULL,                 -- '0001_initial'
    checksum    text NOT NULL,                 -- SHA-256 of the file, hex
    applied_at  timestamptz NOT NULL DEFAULT now()
);

-- The inbox: every accepted notification (and every receipt queued for later), stored
-- before it is acknowledged. `body` never holds the shared secret.
CREATE TABLE notifications (
    id                      bigserial PRIMARY KEY,
    source                  text NOT NULL CHECK (source IN ('v1', 'v2', 'receipt')),
    dedupe_key              text NOT NULL UNIQUE,
    notification_type       text,
    environment             text NOT NULL CHECK (environment IN ('Production', 'Sandbox')),
    bundle_id               text NOT NULL,
    original_transaction_id text,
    app_user_id             text,
    body                    jsonb NOT NULL,
    state                   text NOT NULL DEFAULT 'pending'
                            CHECK (state IN ('pending', 'retrying', 'processed', 'dead')),
    attempts                integer NOT NULL DEFAULT 0,
    next_attempt_at         timestamptz NOT NULL DEFAULT now(),
    claimed_at              timestamptz,
    last_error              text,
    received_at             timestamptz NOT NULL DEFAULT now(),
    processed_at            timestamptz,
    updated_at              timestamptz NOT NULL DEFAULT now()
);
-- The worker's claim query: due, unfinished work in due order.
CREATE INDEX notifications_due_idx ON notifications (next_attempt_at, id)
    WHERE state IN ('pending', 'retrying');
CREATE INDEX notifications_state_received_idx ON notifications (state, received_at DESC);
CREATE INDEX notifications_original_transaction_idx ON notifications (original_transaction_id, received_at)
    WHERE original_transaction_id IS NOT NULL;

-- One row per processing attempt, for `subscriptionctl notifications show`.
CREATE TABLE notification_attempts (
    notification_id bigint NOT NULL REFERENCES notifications (id) ON DELETE CASCADE,
    attempt         integer NOT NULL,
    started_at      timestamptz NOT NULL,
    finished_at     timestamptz NOT NULL DEFAULT now(),
    outcome         text NOT NULL CHECK (outcome IN ('processed', 'retry', 'dead')),
    error           text,
    PRIMARY KEY (notification_id, attempt)
);

-- Facts: one row per App Store transaction. Immutable except for cancellation fields,
-- which are only ever filled in.
CREATE TABLE transactions (
    environment             text NOT NULL CHECK (environment IN ('Production', 'Sandbox')),
    transaction_id          text NOT NULL,
    original_transaction_id text NOT NULL,
    bundle_id               text NOT NULL,
    product_id              text NOT NULL,
    subscription_group_id   text,
    purchase_date           timestamptz NOT NULL,
    original_purchase_date  timestamptz,
    expires_date            timestamptz,
    web_order_line_item_id  text,
    is_trial_period         boolean NOT NULL DEFAULT false,
    is_in_intro_offer_period boolean NOT NULL DEFAULT false,
    is_upgraded             boolean NOT NULL DEFAULT false,
    cancellation_date       timestamptz,
    cancellation_reason     text,
    ownership_type          text,
    offer_code_ref_name     text,
    promotional_offer_id    text,
    first_seen_at           timestamptz NOT NULL DEFAULT now(),
    updated_at              timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (environment, transaction_id)
);
CREATE INDEX transactions_original_idx ON transactions (environment, original_transaction_id);

-- The newest renewal information per original transaction; replaced only by newer.
CREATE TABLE renewal_info (
    environment              text NOT NULL CHECK (environment IN ('Production', 'Sandbox')),
    original_transaction_id  text NOT NULL,
    bundle_id                text NOT NULL,
    product_id               text,
    auto_renew_product_id    text,
    auto_renew_status        boolean,
    expiration_intent        text,
    is_in_billing_retry_period boolean NOT NULL DEFAULT false,
    grace_period_expires_date timestamptz,
    price_consent_status     text,
    observed_at              timestamptz NOT NULL,
    updated_at               timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (environment, original_transaction_id)
);

-- Derived: one row per original transaction, recomputed from the facts on every change.
CREATE TABLE subscriptions (
    environment              text NOT NULL CHECK (environment IN ('Production', 'Sandbox')),
    original_transaction_id  text NOT NULL,
    bundle_id                text NOT NULL,
    product_id               text NOT NULL,
    subscription_group_id    text,
    status                   text NOT NULL
                             CHECK (status IN ('active', 'grace_period', 'billing_retry', 'expired', 'revoked')),
    expires_at               timestamptz,
    auto_renew               boolean,
    auto_renew_product_id    text,
    expiration_intent        text,
    in_trial                 boolean NOT NULL DEFAULT false,
    in_intro_offer           boolean NOT NULL DEFAULT false,
    grace_period_expires_at  timestamptz,
    revoked_at               timestamptz,
    revocation_reason        text,
    latest_transaction_id    text NOT NULL,
    latest_receipt           text,
    latest_receipt_observed_at timestamptz,
    created_at               timestamptz NOT NULL DEFAULT now(),
    updated_at               timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (environment, original_transaction_id)
);
CREATE INDEX subscriptions_original_idx ON subscriptions (original_transaction_id);
CREATE INDEX subscriptions_status_idx ON subscriptions (status, environment);

-- Which of the app's users own which original transactions.
CREATE TABLE subscribers (
    app_user_id             text NOT NULL,
    environment             text NOT NULL CHECK (environment IN ('Production', 'Sandbox')),
    original_transaction_id text NOT NULL,
    bundle_id               text NOT NULL,
    linked_at               timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (app_user_id, environment, original_transaction_id)
);
CREATE INDEX subscribers_original_idx ON subscribers (environment, original_transaction_id);

-- The product catalog (`subscriptionctl products import`).
CREATE TABLE products (
    product_id              text PRIMARY KEY,
    bundle_id               text NOT NULL,
    type                    text NOT NULL
                            CHECK (type IN ('auto_renewable', 'non_renewing', 'consumable', 'non_consumable')),
    subscription_group_id   text,
    period                  text,
    intro_payment_mode      text CHECK (intro_payment_mode IN ('pay_as_you_go', 'pay_up_front', 'free_trial')),
    intro_period            text,
    intro_periods           integer,
    intro_price             numeric(12, 2),
    updated_at              timestamptz NOT NULL DEFAULT now(),
    CHECK (type <> 'auto_renewable' OR subscription_group_id IS NOT NULL)
);
CREATE INDEX products_group_idx ON products (subscription_group_id);

-- Every status change of a subscription, in order; also announced with NOTIFY subscription_status.
CREATE TABLE status_events (
    id                      bigserial PRIMARY KEY,
    environment             text NOT NULL CHECK (environment IN ('Production', 'Sandbox')),
    original_transaction_id text NOT NULL,
    old_status              text,
    new_status              text NOT NULL,
    notification_id         bigint REFERENCES notifications (id) ON DELETE SET NULL,
    occurred_at             timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX status_events_original_idx ON status_events (environment, original_transaction_id, id);
