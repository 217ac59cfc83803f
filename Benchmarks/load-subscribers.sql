-- Loads :count synthetic subscribers straight into the tables the pipeline writes for a
-- subscriber — transactions, renewal_info, subscriptions, status_events and the
-- subscribers links — for the read benchmarks (going through verifyReceipt for a million
-- users would measure the simulator, not the read path). The inbox (notifications) and the
-- webhook outbox are left empty: no read touches them.
--
-- Every user has one subscription in group 20500000 with three monthly transactions:
--   n % 3 = 0  used a free trial in the first period (active now, unless revoked below);
--   n % 3 = 1  lapsed 50 days ago: billing_retry when n % 7 = 0, grace_period when
--              n % 7 = 1, else expired (customer cancelled);
--   n % 3 = 2  active now, no offer used;
--   an active user with n % 7 = 2 had the current period refunded (revoked).
-- Every tenth user (n % 10 = 7) also has a weekly subscription in group 20600000, so a
-- tenth of the subscriber reads return two subscriptions of two groups. Every fifth user
-- (n % 5 = 0) is in the Sandbox environment. The main subscription of user n is original
-- transaction 7000000000000000 + n, the weekly one 8000000000000000 + n. Some users also
-- hold a lifetime unlock or a manual grant (below).
--   psql "$DATABASE_URL" -v count=100000 -f Benchmarks/load-subscribers.sql
-- -v first=N loads users N to :count only (Benchmarks/reads.sh grows a database in steps);
-- -v vacuum=off leaves the closing VACUUM and CHECKPOINT to the caller.
\if :{?first}
\else
\set first 1
\endif
\if :{?vacuum}
\else
\set vacuum on
\endif
BEGIN;
CREATE TEMP TABLE bench_users AS
SELECT n,
       'bench-user-' || n AS app_user_id,
       (7000000000000000 + n)::text AS otid,
       CASE WHEN n % 5 = 0 THEN 'Sandbox' ELSE 'Production' END AS environment,
       n % 3 = 0 AS used_trial,
       n % 3 = 1 AS lapsed,
       n % 3 = 1 AND n % 7 IN (0, 1) AS retrying,
       n % 3 = 1 AND n % 7 = 1 AS in_grace,
       n % 3 <> 1 AND n % 7 = 2 AS refunded,
       n % 10 = 7 AS weekly
FROM generate_series(:first, :count) AS n;

INSERT INTO transactions (environment, transaction_id, original_transaction_id, bundle_id, product_id,
    subscription_group_id, purchase_date, original_purchase_date, expires_date, is_trial_period,
    cancellation_date, cancellation_reason, ownership_type, stated_at)
SELECT u.environment, (u.otid::bigint * 10 + p)::text, u.otid, 'com.example.app', 'com.example.pro.monthly', '20500000',
       -- periods of 30 days: [-80, -50], [-50, -20], [-20, +10] days (lapsed: 60 days earlier)
       now() - make_interval(days => 80 - 30 * p) - CASE WHEN u.lapsed THEN interval '60 days' ELSE interval '0' END,
       now() - interval '80 days',
       now() - make_interval(days => 50 - 30 * p) - CASE WHEN u.lapsed THEN interval '60 days' ELSE interval '0' END,
       u.used_trial AND p = 0,
       CASE WHEN u.refunded AND p = 2 THEN now() - interval '1 day' END,
       CASE WHEN u.refunded AND p = 2 THEN '0' END,
       'PURCHASED', now()
FROM bench_users u CROSS JOIN generate_series(0, 2) AS p;

INSERT INTO transactions (environment, transaction_id, original_transaction_id, bundle_id, product_id,
    subscription_group_id, purchase_date, original_purchase_date, expires_date, is_in_intro_offer_period,
    ownership_type, stated_at, source, offer_type)
SELECT u.environment, (8000000000000000 + u.n)::text, (8000000000000000 + u.n)::text, 'com.example.app',
       'com.example.news.weekly', '20600000', now() - interval '2 days', now() - interval '2 days',
       now() + interval '5 days', true, 'PURCHASED', now(), 'v2', 1
FROM bench_users u WHERE u.weekly;

INSERT INTO renewal_info (environment, original_transaction_id, bundle_id, product_id, auto_renew_product_id,
    auto_renew_status, expiration_intent, is_in_billing_retry_period, grace_period_expires_date, observed_at)
SELECT environment, otid, 'com.example.app', 'com.example.pro.monthly', 'com.example.pro.monthly',
       retrying OR NOT lapsed,
       CASE WHEN retrying THEN 'billing_error' WHEN lapsed THEN 'customer_cancelled' END,
       retrying, CASE WHEN in_grace THEN now() + interval '6 days' END, now()
FROM bench_users;

INSERT INTO renewal_info (environment, original_transaction_id, bundle_id, product_id, auto_renew_product_id,
    auto_renew_status, observed_at)
SELECT environment, (8000000000000000 + n)::text, 'com.example.app', 'com.example.news.weekly', 'com.example.news.weekly',
       true, now()
FROM bench_users WHERE weekly;

-- What SubscriptionRecompute would have written for these facts.
CREATE TEMP TABLE bench_subscriptions AS
SELECT u.environment, u.otid, 'com.example.pro.monthly' AS product_id, '20500000' AS subscription_group_id,
       CASE WHEN u.in_grace THEN 'grace_period' WHEN u.retrying THEN 'billing_retry' WHEN u.lapsed THEN 'expired'
            WHEN u.refunded THEN 'revoked' ELSE 'active' END AS status,
       now() + CASE WHEN u.lapsed THEN interval '-50 days' ELSE interval '10 days' END AS expires_at,
       u.retrying OR NOT u.lapsed AS auto_renew,
       CASE WHEN u.retrying THEN 'billing_error' WHEN u.lapsed THEN 'customer_cancelled' END AS expiration_intent,
       CASE WHEN u.in_grace THEN now() + interval '6 days' END AS grace_period_expires_at,
       CASE WHEN u.refunded THEN now() - interval '1 day' END AS revoked_at,
       CASE WHEN u.refunded THEN '0' END AS revocation_reason,
       (u.otid::bigint * 10 + 2)::text AS latest_transaction_id
FROM bench_users u
UNION ALL
SELECT u.environment, (8000000000000000 + u.n)::text, 'com.example.news.weekly', '20600000', 'active',
       now() + interval '5 days', true, NULL, NULL, NULL, NULL, (8000000000000000 + u.n)::text
FROM bench_users u WHERE u.weekly;

INSERT INTO subscriptions (environment, original_transaction_id, bundle_id, product_id, subscription_group_id, status,
    expires_at, auto_renew, auto_renew_product_id, expiration_intent, in_intro_offer, grace_period_expires_at,
    revoked_at, revocation_reason, latest_transaction_id)
SELECT environment, otid, 'com.example.app', product_id, subscription_group_id, status, expires_at, auto_renew, product_id,
       expiration_intent, product_id = 'com.example.news.weekly', grace_period_expires_at, revoked_at, revocation_reason,
       latest_transaction_id
FROM bench_subscriptions;

INSERT INTO status_events (environment, original_transaction_id, old_status, new_status)
SELECT environment, otid, NULL, status FROM bench_subscriptions;

INSERT INTO subscribers (app_user_id, environment, original_transaction_id, bundle_id)
SELECT app_user_id, environment, otid, 'com.example.app' FROM bench_users
UNION ALL
SELECT app_user_id, environment, (8000000000000000 + n)::text, 'com.example.app' FROM bench_users WHERE weekly;

-- Entitlements beyond subscriptions: every eleventh user (n % 11 = 3) also bought the
-- lifetime unlock (original transaction 9000000000000000 + n), every thirteenth (n % 13 = 5)
-- has a manual grant of `pro` for 30 more days.
INSERT INTO transactions (environment, transaction_id, original_transaction_id, bundle_id, product_id, purchase_date,
    quantity, product_type, price_milliunits, currency, storefront, source, stated_at)
SELECT environment, (9000000000000000 + n)::text, (9000000000000000 + n)::text, 'com.example.app', 'com.example.pro.lifetime',
       now() - interval '200 days', 1, 'non_consumable', 49990, 'USD', 'USA', 'v2', now() - interval '200 days'
FROM bench_users WHERE n % 11 = 3;
INSERT INTO subscribers (app_user_id, environment, original_transaction_id, bundle_id)
SELECT app_user_id, environment, (9000000000000000 + n)::text, 'com.example.app' FROM bench_users WHERE n % 11 = 3;
INSERT INTO entitlement_grants (app_user_id, entitlement_id, expires_at, reason)
SELECT app_user_id, 'pro', now() + interval '30 days', 'bench comp' FROM bench_users WHERE n % 13 = 5;
COMMIT;
-- A database that has been serving for a while: statistics current, the visibility map set
-- and hint bits written, so autovacuum's pass over three million new rows, and the first
-- reads dirtying every page they touch, do not land in the middle of the measurement.
\if :vacuum
VACUUM (ANALYZE);
CHECKPOINT;
\endif
