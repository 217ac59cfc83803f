-- An inbox that has been in use: 1,000,000 notifications already received and processed by
-- the worker (state 'processed', receipts already stripped like retention does after
-- RETENTION_DAYS), with distinct dedupe keys (in notification_keys, as intake writes them)
-- and subscriptions, in the months they arrived (spread over the last 40 days, whatever N). psql -v rows=N.
SELECT ensure_monthly_partitions('notifications', now() - interval '40 days', now());
INSERT INTO notifications (source, dedupe_key, notification_type, environment, bundle_id, original_transaction_id, body,
                           state, attempts, next_attempt_at, received_at, processed_at, updated_at)
SELECT 'v1', 'v1:' || encode(sha256(('preload-' || i)::bytea), 'hex'), 'DID_RENEW', 'Production', 'com.example.app',
       (6000000000000000 + i / 4)::text,
       jsonb_build_object('notification_type', 'DID_RENEW', 'environment', 'PROD', 'bid', 'com.example.app',
           'unified_receipt', jsonb_build_object('environment', 'Production', 'status', 0,
               'latest_receipt_info', jsonb_build_array(jsonb_build_object(
                   'transaction_id', (7000000000000000 + i)::text, 'original_transaction_id', (6000000000000000 + i / 4)::text,
                   'product_id', 'com.example.pro.monthly', 'quantity', '1',
                   'purchase_date_ms', (1700000000000 + i::bigint * 1000)::text, 'expires_date_ms', (1702592000000 + i::bigint * 1000)::text)))),
       'processed', 1, now() - interval '30 days' + i * (interval '29 days' / :rows),
       now() - interval '40 days' + i * (interval '39 days' / :rows), now() - interval '40 days' + i * (interval '39 days' / :rows),
       now() - interval '40 days' + i * (interval '39 days' / :rows)
FROM generate_series(1, :rows) AS i;
INSERT INTO notification_keys (dedupe_key, notification_id, received_at)
SELECT dedupe_key, id, received_at FROM notifications;
VACUUM ANALYZE notifications;
VACUUM ANALYZE notification_keys;
CHECKPOINT;
