-- The append-only tables are partitioned by month (UTC), so that retention drops a month
-- whole (instant, no dead rows, no WAL for the rows) instead of deleting or rewriting rows:
--   notifications          by received_at
--   notification_attempts  by notification_received_at: an attempt lives in its notification's
--                          month and goes with it
--   webhook_events         by created_at
-- Each has a DEFAULT partition too, so a row is stored even in a month nobody made a partition
-- for; ensure_monthly_partition moves such rows into the month's partition when it makes it.
-- The partitions themselves are kept by the server (PartitionMaintenance, with retention).
--
-- A unique index on a partitioned table must include the partition key, so:
--   * the inbox's dedupe keys move to notification_keys, unpartitioned and narrow, written in
--     the same statement as the notification;
--   * ids stay unique through their sequences; the primary keys become (id, month key);
--   * the foreign keys into notifications go (attempts share their notification's month;
--     status_events keeps the id it had).
-- Every row is copied in this one transaction: the migration keeps all of them or none.

-- notifications_p2026_11: `parent`'s partition for the month (UTC) that holds `at`.
CREATE FUNCTION monthly_partition_name(parent text, at timestamptz) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
    SELECT parent || '_p' || to_char(at AT TIME ZONE 'UTC', 'YYYY_MM')
$$;

-- Makes `parent`'s partition for the month holding `at` unless it exists, moving into it any
-- rows of that month the default partition holds. True when it made one.
CREATE FUNCTION ensure_monthly_partition(parent text, at timestamptz) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
    first_day timestamptz := date_trunc('month', at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
    next_first_day timestamptz := (date_trunc('month', at AT TIME ZONE 'UTC') + interval '1 month') AT TIME ZONE 'UTC';
    partition text := monthly_partition_name(parent, at);
    key text;
BEGIN
    IF to_regclass(partition) IS NOT NULL THEN
        RETURN false;
    END IF;
    SELECT a.attname INTO STRICT key
    FROM pg_partitioned_table p JOIN pg_attribute a ON a.attrelid = p.partrelid AND a.attnum = p.partattrs[0]
    WHERE p.partrelid = parent::regclass;
    EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE)', partition, parent);
    EXECUTE format(
        'WITH moved AS (DELETE FROM %I WHERE %I >= %L AND %I < %L RETURNING *) INSERT INTO %I SELECT * FROM moved',
        parent || '_default', key, first_day, key, next_first_day, partition);
    EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', parent, partition, first_day, next_first_day);
    RETURN true;
END
$$;

-- Every month's partition of `parent` from the month of `from_at` through the month of `to_at`;
-- how many it made.
CREATE FUNCTION ensure_monthly_partitions(parent text, from_at timestamptz, to_at timestamptz) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
    month timestamptz := date_trunc('month', from_at AT TIME ZONE 'UTC') AT TIME ZONE 'UTC';
    made integer := 0;
BEGIN
    WHILE month <= to_at LOOP
        IF ensure_monthly_partition(parent, month) THEN
            made := made + 1;
        END IF;
        month := (month AT TIME ZONE 'UTC' + interval '1 month') AT TIME ZONE 'UTC';
    END LOOP;
    RETURN made;
END
$$;

-- Drops the months of `parent` (notifications or webhook_events) that ended before `before` and
-- hold no row still waiting (pending or retrying); a month of notifications goes with its month
-- of notification_attempts. Returns the partitions dropped. The parents are locked first, in
-- the order the worker writes them, for as long as the checks take (a partial index each);
-- a lock not had within 2 seconds fails the call, which retention tries again next time.
CREATE FUNCTION drop_finished_months(parent text, before timestamptz) RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
    partition text;
    attempts text;
    month_end timestamptz;
    waiting boolean;
BEGIN
    IF parent NOT IN ('notifications', 'webhook_events') THEN
        RAISE EXCEPTION 'drop_finished_months: % is not a partitioned append-only table', parent;
    END IF;
    PERFORM set_config('lock_timeout', '2s', true);
    IF parent = 'notifications' THEN
        LOCK TABLE notifications, notification_attempts IN ACCESS EXCLUSIVE MODE;
    ELSE
        LOCK TABLE webhook_events IN ACCESS EXCLUSIVE MODE;
    END IF;
    FOR partition IN
        SELECT c.relname FROM pg_inherits AS i JOIN pg_class AS c ON c.oid = i.inhrelid
        WHERE i.inhparent = parent::regclass AND c.relname ~ '_p[0-9]{4}_[0-9]{2}$'
        ORDER BY c.relname
    LOOP
        month_end := (to_date(right(partition, 7), 'YYYY_MM') + interval '1 month') AT TIME ZONE 'UTC';
        CONTINUE WHEN month_end > before;
        EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I WHERE state IN (''pending'', ''retrying''))', partition) INTO waiting;
        CONTINUE WHEN waiting;
        EXECUTE format('DROP TABLE %I', partition);
        RETURN NEXT partition;
        IF parent = 'notifications' THEN
            attempts := 'notification_attempts' || substr(partition, length('notifications') + 1);
            IF to_regclass(attempts) IS NOT NULL THEN
                EXECUTE format('DROP TABLE %I', attempts);
                RETURN NEXT attempts;
            END IF;
        END IF;
    END LOOP;
END
$$;

-- notifications --------------------------------------------------------------------------
ALTER TABLE notification_attempts DROP CONSTRAINT notification_attempts_notification_id_fkey;
ALTER TABLE status_events DROP CONSTRAINT status_events_notification_id_fkey;
ALTER TABLE notifications RENAME TO notifications_unpartitioned;
ALTER TABLE notifications_unpartitioned DROP CONSTRAINT notifications_pkey, DROP CONSTRAINT notifications_dedupe_key_key;
DROP INDEX notifications_due_idx, notifications_state_received_idx, notifications_original_transaction_idx,
    notifications_suspect_due_idx, notifications_app_user_idx;
ALTER SEQUENCE notifications_id_seq OWNED BY NONE;

CREATE TABLE notifications (LIKE notifications_unpartitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE)
    PARTITION BY RANGE (received_at);
ALTER TABLE notifications ADD PRIMARY KEY (id, received_at);
ALTER SEQUENCE notifications_id_seq OWNED BY notifications.id;
-- The worker's claim query: due, unfinished work in due order.
CREATE INDEX notifications_due_idx ON notifications (next_attempt_at, id) WHERE state IN ('pending', 'retrying');
CREATE INDEX notifications_suspect_due_idx ON notifications (next_attempt_at, id)
    WHERE state IN ('pending', 'retrying') AND unfinished_claims > 0;
CREATE INDEX notifications_state_received_idx ON notifications (state, received_at DESC);
CREATE INDEX notifications_original_transaction_idx ON notifications (original_transaction_id, received_at)
    WHERE original_transaction_id IS NOT NULL;
CREATE INDEX notifications_app_user_idx ON notifications (app_user_id) WHERE app_user_id IS NOT NULL;
CREATE TABLE notifications_default PARTITION OF notifications DEFAULT;

-- Apple's retries and our own replays find the stored notification here; kept at least 181
-- days (a signed notification older than 180 is refused anyway), longer than its row when
-- retention drops months sooner.
CREATE TABLE notification_keys (
    dedupe_key      text PRIMARY KEY,
    notification_id bigint NOT NULL,
    received_at     timestamptz NOT NULL
);
-- Keys arrive in time order, so a block range index finds the old ones for retention at
-- almost no cost to each insert (a btree here would be one more index write per notification).
CREATE INDEX notification_keys_received_idx ON notification_keys USING brin (received_at);

SELECT ensure_monthly_partitions('notifications', coalesce(min(received_at), now()), now() + interval '2 months')
FROM notifications_unpartitioned;
INSERT INTO notifications SELECT * FROM notifications_unpartitioned;
INSERT INTO notification_keys (dedupe_key, notification_id, received_at)
SELECT dedupe_key, id, received_at FROM notifications_unpartitioned;

-- notification_attempts ------------------------------------------------------------------
ALTER TABLE notification_attempts RENAME TO notification_attempts_unpartitioned;
ALTER TABLE notification_attempts_unpartitioned DROP CONSTRAINT notification_attempts_pkey;

CREATE TABLE notification_attempts (
    LIKE notification_attempts_unpartitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE,
    notification_received_at timestamptz NOT NULL
) PARTITION BY RANGE (notification_received_at);
ALTER TABLE notification_attempts ADD PRIMARY KEY (notification_id, attempt, notification_received_at);
CREATE TABLE notification_attempts_default PARTITION OF notification_attempts DEFAULT;

SELECT ensure_monthly_partitions('notification_attempts', coalesce(min(received_at), now()), now() + interval '2 months')
FROM notifications_unpartitioned;
INSERT INTO notification_attempts (notification_id, attempt, started_at, finished_at, outcome, error, actor, notification_received_at)
SELECT a.notification_id, a.attempt, a.started_at, a.finished_at, a.outcome, a.error, a.actor, n.received_at
FROM notification_attempts_unpartitioned AS a JOIN notifications_unpartitioned AS n ON n.id = a.notification_id;

DROP TABLE notification_attempts_unpartitioned;
DROP TABLE notifications_unpartitioned;

-- webhook_events -------------------------------------------------------------------------
ALTER TABLE webhook_events RENAME TO webhook_events_unpartitioned;
ALTER TABLE webhook_events_unpartitioned DROP CONSTRAINT webhook_events_pkey, DROP CONSTRAINT webhook_events_event_id_key;
DROP INDEX webhook_events_due_idx, webhook_events_subscription_idx, webhook_events_state_created_idx,
    webhook_events_users_idx, webhook_events_user_idx;
ALTER SEQUENCE webhook_events_id_seq OWNED BY NONE;

CREATE TABLE webhook_events (LIKE webhook_events_unpartitioned INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING STORAGE)
    PARTITION BY RANGE (created_at);
ALTER TABLE webhook_events ADD PRIMARY KEY (id, created_at);
ALTER SEQUENCE webhook_events_id_seq OWNED BY webhook_events.id;
-- event_id is 128 random bits: unique by construction, looked up by `webhooks show`.
CREATE INDEX webhook_events_event_id_idx ON webhook_events (event_id);
-- The delivery claim: due, unfinished events in order.
CREATE INDEX webhook_events_due_idx ON webhook_events (next_attempt_at, id) WHERE state IN ('pending', 'retrying');
-- Per-subscription order: "is an earlier event of this subscription still unfinished?"
CREATE INDEX webhook_events_subscription_idx ON webhook_events (environment, original_transaction_id, id)
    WHERE state IN ('pending', 'retrying');
CREATE INDEX webhook_events_state_created_idx ON webhook_events (state, created_at DESC);
CREATE INDEX webhook_events_users_idx ON webhook_events USING gin (app_user_ids);
CREATE INDEX webhook_events_user_idx ON webhook_events (app_user_id, id) WHERE app_user_id IS NOT NULL;
CREATE TABLE webhook_events_default PARTITION OF webhook_events DEFAULT;

SELECT ensure_monthly_partitions('webhook_events', coalesce(min(created_at), now()), now() + interval '2 months')
FROM webhook_events_unpartitioned;
INSERT INTO webhook_events SELECT * FROM webhook_events_unpartitioned;
DROP TABLE webhook_events_unpartitioned;

-- The copies have no statistics yet: without them the first plans would scan every month.
ANALYZE notifications, notification_keys, notification_attempts, webhook_events;
