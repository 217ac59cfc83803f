-- What the Get Retention Message endpoint (`POST /retention/appstore`) answered the App
-- Store: one row per request Apple signed (its `requestIdentifier`; a repeated request is kept
-- once), written after the answer, in batches, off the request path. `answer` is the kind
-- shown (`default` when Apple showed its own message), `reason` why: a rule matched
-- (`matched`, with its index), none did (`no_match`), the subscription is not stored
-- (`unknown_subscription`), or the answer was not ready in time (`deadline`) or failed (`failed`).
CREATE TABLE retention_answers (
    request_identifier      text PRIMARY KEY,
    answered_at             timestamptz NOT NULL,
    environment             text NOT NULL,
    bundle_id               text,
    original_transaction_id text NOT NULL,
    product_id              text,
    user_locale             text,
    answer                  text NOT NULL CHECK (answer IN ('message', 'alternate_product', 'promotional_offer', 'default')),
    reason                  text NOT NULL CHECK (reason IN ('matched', 'no_match', 'unknown_subscription', 'deadline', 'failed')),
    rule_index              integer,
    message_identifier      uuid,
    offered_product_id      text,
    offer_id                text,
    CHECK ((answer = 'default') = (message_identifier IS NULL))
);

CREATE INDEX retention_answers_subscription_idx ON retention_answers (environment, original_transaction_id, answered_at DESC);
CREATE INDEX retention_answers_answered_at_idx ON retention_answers (answered_at);
