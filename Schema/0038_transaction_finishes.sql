-- Finish Transaction (App Store Server API 1.20) for apps with `finish_transactions`: each
-- one-time purchase seen for the first time is queued here in the transaction that applied it
-- (`due`; a consumable `awaiting_delivery` until the app's backend confirms delivery with
-- POST /v1/purchases/{transaction_id}/delivered), then the finish sender tells Apple, retrying
-- with backoff, and records the outcome (`finished`, or `failed` when Apple refuses for good).
CREATE TABLE transaction_finishes (
    environment             text NOT NULL,
    transaction_id          text NOT NULL,
    bundle_id               text NOT NULL,
    original_transaction_id text NOT NULL,
    state                   text NOT NULL CHECK (state IN ('awaiting_delivery', 'due', 'finished', 'failed')),
    queued_at               timestamptz NOT NULL DEFAULT now(),
    delivered_at            timestamptz,
    delivered_by            text,
    attempts                integer NOT NULL DEFAULT 0,
    next_attempt_at         timestamptz,
    last_error              text,
    finished_at             timestamptz,
    PRIMARY KEY (environment, transaction_id)
);

CREATE INDEX transaction_finishes_due_idx ON transaction_finishes (next_attempt_at) WHERE state = 'due';
CREATE INDEX transaction_finishes_transaction_idx ON transaction_finishes (transaction_id);
CREATE INDEX transaction_finishes_purchase_idx ON transaction_finishes (environment, original_transaction_id);
