-- Loads :count subscribers whose monthly subscription ends in an hour, auto-renew off, for
-- the sweep benchmark (Benchmarks/sweep.sh): the facts and what SubscriptionRecompute and an
-- entitlement review would have written for them (stored `active`, due at the end; `pro`
-- active at the last review, the next review due at the end). The benchmark then moves
-- every end to the same moment.
--   psql "$DATABASE_URL" -v count=10000 -f Benchmarks/load-expiring.sql
BEGIN;
INSERT INTO products (product_id, bundle_id, type, subscription_group_id, period)
VALUES ('com.example.pro.monthly', 'com.example.app', 'auto_renewable', '20500000', 'P1M')
ON CONFLICT DO NOTHING;
INSERT INTO entitlements (entitlement_id) VALUES ('pro') ON CONFLICT DO NOTHING;
INSERT INTO entitlement_products (entitlement_id, product_id) VALUES ('pro', 'com.example.pro.monthly') ON CONFLICT DO NOTHING;

CREATE TEMP TABLE expiring AS
SELECT n, 'expiring-user-' || n AS app_user_id, (6000000000000000 + n)::text AS otid,
       now() + interval '1 hour' AS ends_at
FROM generate_series(1, :count) AS n;

INSERT INTO transactions (environment, transaction_id, original_transaction_id, bundle_id, product_id,
    subscription_group_id, purchase_date, original_purchase_date, expires_date, ownership_type, stated_at)
SELECT 'Production', otid, otid, 'com.example.app', 'com.example.pro.monthly', '20500000',
       ends_at - interval '30 days', ends_at - interval '30 days', ends_at, 'PURCHASED', now()
FROM expiring;
INSERT INTO renewal_info (environment, original_transaction_id, bundle_id, product_id, auto_renew_product_id,
    auto_renew_status, expiration_intent, is_in_billing_retry_period, observed_at)
SELECT 'Production', otid, 'com.example.app', 'com.example.pro.monthly', 'com.example.pro.monthly',
       false, 'customer_cancelled', false, now()
FROM expiring;
INSERT INTO subscriptions (environment, original_transaction_id, bundle_id, product_id, subscription_group_id, status,
    expires_at, auto_renew, auto_renew_product_id, expiration_intent, latest_transaction_id, due_at)
SELECT 'Production', otid, 'com.example.app', 'com.example.pro.monthly', '20500000', 'active',
       ends_at, false, 'com.example.pro.monthly', 'customer_cancelled', otid, ends_at
FROM expiring;
INSERT INTO subscribers (app_user_id, environment, original_transaction_id, bundle_id)
SELECT app_user_id, 'Production', otid, 'com.example.app' FROM expiring;
INSERT INTO user_entitlements (app_user_id, entitlement_id) SELECT app_user_id, 'pro' FROM expiring;
INSERT INTO entitlement_reviews (app_user_id, due_at) SELECT app_user_id, ends_at FROM expiring;
COMMIT;
VACUUM (ANALYZE);
CHECKPOINT;
