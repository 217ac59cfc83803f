-- Renewal-date extensions (`subscriptionctl extend`, DESIGN.md "Apple's other server tools").
-- Each request is stored with its identifier before it is sent, so a command stopped at any
-- point sends the same identifier when run again (Apple extends once per identifier), and a
-- mass request is polled again until Apple says it is complete. `state`:
--   pending   stored, not yet accepted by Apple (or the answer was lost): send again
--   accepted  a mass request Apple took: ask its status until complete
--   complete  done: `effective_date` (one subscription) or the counts (mass)
--   failed    Apple refused it for good (`last_error`); running the command again makes a new one
CREATE TABLE renewal_extensions (
    request_identifier      uuid PRIMARY KEY,
    bundle_id               text NOT NULL,
    environment             text CHECK (environment IN ('Production', 'Sandbox')),
    original_transaction_id text,
    product_id              text,
    storefronts             text[],
    extend_by_days          integer NOT NULL CHECK (extend_by_days BETWEEN 1 AND 90),
    reason_code             integer NOT NULL CHECK (reason_code BETWEEN 0 AND 3),
    state                   text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'accepted', 'complete', 'failed')),
    effective_date          timestamptz,
    succeeded_count         integer,
    failed_count            integer,
    last_error              text,
    created_at              timestamptz NOT NULL DEFAULT now(),
    accepted_at             timestamptz,
    completed_at            timestamptz,
    -- One subscription, or every active subscriber of one product (in one environment).
    CHECK ((original_transaction_id IS NULL) <> (product_id IS NULL)),
    CHECK (product_id IS NULL OR environment IS NOT NULL)
);
CREATE INDEX renewal_extensions_open_idx ON renewal_extensions (bundle_id, created_at) WHERE state IN ('pending', 'accepted');
