-- Stored answers of the read endpoints (docs/read-answers.md).
--
-- `GET /v1/subscriptions/{id}`, `GET /v1/subscribers/{id}` and `POST /v1/eligibility`
-- compute their answers from the stored facts at read time. The answer computed last is
-- kept here, so that a read whose facts have not changed since is one primary-key lookup.
--
-- An answer is served only while all of these hold, else the read computes it again:
-- - `answer_version = version`: `version` is raised by triggers on every change to the
--   facts the answer depends on, in the changing transaction itself, so a writer cannot
--   forget it; a reader stores the `version` that its lookup of the stale answer returned,
--   before it read the facts.
-- - `catalog_generation` is the current one: any change to `products` raises it.
-- - `format` is the reading subscriptiond's (`ReadAnswers.format`): a release that changes
--   what an answer holds does not serve the answers of the one before.
-- - `valid_until` (the first expiry or grace-period end after the computation, NULL when
--   none is left) is later than the time of the read: status changes with time only there.
--
-- A reader never waits for or raises `version`, so a slow or stale reader can store an
-- answer that is never served, never one that is served wrongly.

-- One row: raised by any change to the product catalog.
CREATE TABLE answer_catalog_generation (
    singleton   boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    generation  bigint NOT NULL
);
INSERT INTO answer_catalog_generation (singleton, generation) VALUES (true, 1);

-- By original transaction id, for both environments (the read prefers Production).
CREATE TABLE subscription_answers (
    original_transaction_id text PRIMARY KEY,
    version                 bigint NOT NULL DEFAULT 0,
    changed_in              xid8,           -- the transaction that raised `version` last
    answer_version          bigint,         -- the `version` the answer was computed at
    catalog_generation      bigint,
    format                  integer,        -- `ReadAnswers.format` of the writer
    valid_until             timestamptz,
    body                    text            -- the response body (contract JSON)
);

-- By app user id: the subscriber document, and what eligibility needs of the user's history
-- (subscription group keys: 'group:<id>', or 'product:<id>' for a product without a group).
CREATE TABLE subscriber_answers (
    app_user_id             text PRIMARY KEY,
    version                 bigint NOT NULL DEFAULT 0,
    changed_in              xid8,
    answer_version          bigint,
    catalog_generation      bigint,
    format                  integer,
    valid_until             timestamptz,
    body                    text,
    offer_used_groups       text[],         -- a transaction had a free trial or intro price
    purchased_groups        text[],         -- any transaction
    entitled_groups         text[]          -- active or in grace period at the computation
);

-- Raises the version of a subscription's answer and of its linked users' answers, once per
-- transaction: a notification writes four to six rows of one subscription, and only the
-- first call does the work. The transaction's calls so far are noted in a setting local to
-- it (`subscriptiond.answers_raised`, reset at its end, and with a savepoint's rollback),
-- by SHA-256 of the key, up to 4 kB, about 60 subscriptions (a bulk load in one
-- transaction raises every time after those, rather than search a longer note on every row);
-- `changed_in` is the same once-per-transaction rule kept on the row itself.
-- PL/pgSQL, not SQL: its statements are planned once per session, where a SQL function
-- called from a trigger is planned again on every call.
CREATE FUNCTION answers_subscription_changed(changed_environment text, changed_original_transaction_id text)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
    marker text := ',' || encode(sha256(convert_to(changed_environment || '/' || changed_original_transaction_id, 'UTF8')), 'hex') || ',';
    raised text := coalesce(current_setting('subscriptiond.answers_raised', true), '');
BEGIN
    IF position(marker IN raised) > 0 THEN
        RETURN;
    END IF;
    IF length(raised) < 4096 THEN
        PERFORM set_config('subscriptiond.answers_raised', raised || marker, true);
    END IF;
    INSERT INTO subscription_answers AS a (original_transaction_id, version, changed_in)
    VALUES (changed_original_transaction_id, 1, pg_current_xact_id())
    ON CONFLICT (original_transaction_id) DO UPDATE SET version = a.version + 1, changed_in = EXCLUDED.changed_in
        WHERE a.changed_in IS DISTINCT FROM EXCLUDED.changed_in;
    INSERT INTO subscriber_answers AS a (app_user_id, version, changed_in)
    SELECT app_user_id, 1, pg_current_xact_id() FROM subscribers
    WHERE environment = changed_environment AND original_transaction_id = changed_original_transaction_id
    ORDER BY app_user_id
    ON CONFLICT (app_user_id) DO UPDATE SET version = a.version + 1, changed_in = EXCLUDED.changed_in
        WHERE a.changed_in IS DISTINCT FROM EXCLUDED.changed_in;
END $$;

CREATE FUNCTION answers_subscriber_changed(changed_app_user_id text)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    INSERT INTO subscriber_answers AS a (app_user_id, version, changed_in)
    VALUES (changed_app_user_id, 1, pg_current_xact_id())
    ON CONFLICT (app_user_id) DO UPDATE SET version = a.version + 1, changed_in = EXCLUDED.changed_in
        WHERE a.changed_in IS DISTINCT FROM EXCLUDED.changed_in;
END $$;

-- `transactions`, `renewal_info`, `subscriptions`: a row of a subscription's facts changed
-- (an UPDATE that moves a row to another subscription changes both).
CREATE FUNCTION answers_fact_row_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM answers_subscription_changed(OLD.environment, OLD.original_transaction_id);
        RETURN NULL;
    END IF;
    PERFORM answers_subscription_changed(NEW.environment, NEW.original_transaction_id);
    IF TG_OP = 'UPDATE' AND (OLD.environment <> NEW.environment OR OLD.original_transaction_id <> NEW.original_transaction_id) THEN
        PERFORM answers_subscription_changed(OLD.environment, OLD.original_transaction_id);
    END IF;
    RETURN NULL;
END $$;

-- `subscribers`: a user's links changed.
CREATE FUNCTION answers_link_row_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP <> 'INSERT' THEN
        PERFORM answers_subscriber_changed(OLD.app_user_id);
    END IF;
    IF TG_OP <> 'DELETE' THEN
        PERFORM answers_subscriber_changed(NEW.app_user_id);
    END IF;
    RETURN NULL;
END $$;

-- `products`, or a TRUNCATE of any table answers depend on: every answer is stale.
CREATE FUNCTION answers_all_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    UPDATE answer_catalog_generation SET generation = generation + 1;
    RETURN NULL;
END $$;

CREATE TRIGGER transactions_answers_insert_delete AFTER INSERT OR DELETE ON transactions
    FOR EACH ROW EXECUTE FUNCTION answers_fact_row_changed();
CREATE TRIGGER transactions_answers_update AFTER UPDATE ON transactions
    FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION answers_fact_row_changed();
CREATE TRIGGER renewal_info_answers_insert_delete AFTER INSERT OR DELETE ON renewal_info
    FOR EACH ROW EXECUTE FUNCTION answers_fact_row_changed();
CREATE TRIGGER renewal_info_answers_update AFTER UPDATE ON renewal_info
    FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION answers_fact_row_changed();
CREATE TRIGGER subscriptions_answers_insert_delete AFTER INSERT OR DELETE ON subscriptions
    FOR EACH ROW EXECUTE FUNCTION answers_fact_row_changed();
CREATE TRIGGER subscriptions_answers_update AFTER UPDATE ON subscriptions
    FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION answers_fact_row_changed();
CREATE TRIGGER subscribers_answers_insert_delete AFTER INSERT OR DELETE ON subscribers
    FOR EACH ROW EXECUTE FUNCTION answers_link_row_changed();
CREATE TRIGGER subscribers_answers_update AFTER UPDATE ON subscribers
    FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION answers_link_row_changed();
CREATE TRIGGER products_answers AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON products
    FOR EACH STATEMENT EXECUTE FUNCTION answers_all_changed();
CREATE TRIGGER transactions_answers_truncate AFTER TRUNCATE ON transactions
    FOR EACH STATEMENT EXECUTE FUNCTION answers_all_changed();
CREATE TRIGGER renewal_info_answers_truncate AFTER TRUNCATE ON renewal_info
    FOR EACH STATEMENT EXECUTE FUNCTION answers_all_changed();
CREATE TRIGGER subscriptions_answers_truncate AFTER TRUNCATE ON subscriptions
    FOR EACH STATEMENT EXECUTE FUNCTION answers_all_changed();
CREATE TRIGGER subscribers_answers_truncate AFTER TRUNCATE ON subscribers
    FOR EACH STATEMENT EXECUTE FUNCTION answers_all_changed();
