-- Answering CONSUMPTION_REQUEST (DESIGN.md, "Apple's other server tools"): a customer asked
-- Apple for a refund, and Apple waits 12 hours for the developer's consumption information.
--
-- consumption_consents: whether an app user consented to share consumption data
-- (`PUT /v1/subscribers/{id}/consent`); nothing is sent for a purchase none of whose users did.
CREATE TABLE consumption_consents (
    app_user_id text PRIMARY KEY,
    consented   boolean NOT NULL,
    updated_at  timestamptz NOT NULL DEFAULT now()
);

-- consumption_requests: one row per CONSUMPTION_REQUEST, written by the worker in the
-- transaction that applies the notification (so none is lost or doubled), answered by the
-- consumption sender until `deadline` and never after it. `state`:
--   pending     not answered yet (waiting for consent, or retrying Apple)
--   sent        Apple accepted the answer (202); `body` is what was sent
--   failed      Apple refused it for good (a 4xx other than 429)
--   no_consent  the deadline passed with no consenting user: nothing was sent
--   expired     the deadline passed while Apple could not be reached
-- `outcome` is the REFUND or REFUND_DECLINED that followed, joined by transaction id.
CREATE TABLE consumption_requests (
    id                      bigserial PRIMARY KEY,
    notification_uuid       text NOT NULL UNIQUE,
    environment             text NOT NULL CHECK (environment IN ('Production', 'Sandbox')),
    bundle_id               text NOT NULL,
    transaction_id          text NOT NULL,
    original_transaction_id text NOT NULL,
    product_id              text,
    auto_renewable          boolean NOT NULL,
    reason                  text,
    requested_at            timestamptz NOT NULL,
    deadline                timestamptz NOT NULL,
    state                   text NOT NULL DEFAULT 'pending'
                            CHECK (state IN ('pending', 'sent', 'failed', 'no_consent', 'expired')),
    attempts                integer NOT NULL DEFAULT 0,
    next_attempt_at         timestamptz NOT NULL DEFAULT now(),
    last_error              text,
    body                    text,
    sent_at                 timestamptz,
    outcome                 text CHECK (outcome IN ('REFUND', 'REFUND_DECLINED')),
    outcome_at              timestamptz,
    created_at              timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX consumption_requests_due_idx ON consumption_requests (next_attempt_at) WHERE state = 'pending';
CREATE INDEX consumption_requests_transaction_idx ON consumption_requests (environment, transaction_id);

-- refund_decisions: each REFUND and REFUND_DECLINED (v2), so that a CONSUMPTION_REQUEST
-- delivered after its decision (Apple's deliveries come in any order) still finds it.
CREATE TABLE refund_decisions (
    environment    text NOT NULL CHECK (environment IN ('Production', 'Sandbox')),
    transaction_id text NOT NULL,
    outcome        text NOT NULL CHECK (outcome IN ('REFUND', 'REFUND_DECLINED')),
    decided_at     timestamptz NOT NULL,
    PRIMARY KEY (environment, transaction_id, decided_at, outcome)
);
