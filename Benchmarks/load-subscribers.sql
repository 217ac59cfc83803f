-- Loads :count synthetic subscribers straight into the tables the pipeline writes, for the
-- eligibility latency benchmark (going through verifyReceipt for 100,000 users would
-- measure the simulator, not the read path). Every user has one subscription in group
-- 20500000 with three monthly transactions; a third used a free trial, a third is lapsed
-- (the rest are active now), and every fifth is in the Sandbox environment.
--   psql "$DATABASE_URL" -v count=100000 -f Benchmarks/load-subscribers.sql
BEGIN;
CREATE TEMP TABLE bench_users AS
SELECT n,
       'bench-user-' || n AS app_user_id,
       (7000000000000000 + n)::text AS otid,
       CASE WHEN n % 5 = 0 THEN 'Sandbox' ELSE 'Production' END AS environment,
       n % 3 = 0 AS used_trial,
       n % 3 = 1 AS lapsed
FROM generate_series(1, :count) AS n;

INSERT INTO transactions (environment, transaction_id, original_transaction_id, bundle_id, product_id,
    subscription_group_id, purchase_date, original_purchase_date, expires_date, is_trial_period)
SELECT u.environment, (u.otid::bigint * 10 + p)::text, u.otid, 'com.example.app', 'com.example.pro.monthly', '20500000',
       -- periods of 30 days: [-80, -50], [-50, -20], [-20, +10] days (lapsed: 60 days earlier)
       now() - make_interval(days => 80 - 30 * p) - CASE WHEN u.lapsed THEN interval '60 days' ELSE interval '0' END,
       now() - interval '80 days',
       now() - make_interval(days => 50 - 30 * p) - CASE WHEN u.lapsed THEN interval '60 days' ELSE interval '0' END,
       u.used_trial AND p = 0
FROM bench_users u CROSS JOIN generate_series(0, 2) AS p;

INSERT INTO renewal_info (environment, original_transaction_id, bundle_id, product_id, auto_renew_product_id,
    auto_renew_status, expiration_intent, observed_at)
SELECT environment, otid, 'com.example.app', 'com.example.pro.monthly', 'com.example.pro.monthly',
       NOT lapsed, CASE WHEN lapsed THEN 'customer_cancelled' END, now()
FROM bench_users;

INSERT INTO subscriptions (environment, original_transaction_id, bundle_id, product_id, subscription_group_id, status,
    expires_at, auto_renew, latest_transaction_id)
SELECT environment, otid, 'com.example.app', 'com.example.pro.monthly', '20500000',
       CASE WHEN lapsed THEN 'expired' ELSE 'active' END,
       now() + CASE WHEN lapsed THEN interval '-50 days' ELSE interval '10 days' END, NOT lapsed, (otid::bigint * 10 + 2)::text
FROM bench_users;

INSERT INTO subscribers (app_user_id, environment, original_transaction_id, bundle_id)
SELECT app_user_id, environment, otid, 'com.example.app' FROM bench_users;
COMMIT;
ANALYZE;
