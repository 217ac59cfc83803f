-- EXPLAIN (ANALYZE, BUFFERS) of the statement behind each read endpoint, as
-- SubscriptionReader and CustomerFacts send it (the same text; the keys are bound values
-- there and literals here). Against the data of Benchmarks/reads.sh:
--   LOCAL_POSTGRES_NAME=postgres-bench Deploy/local/postgres.sh start
--   . .local/postgres-bench/env
--   psql "${DATABASE_URL%/*}/bench_reads" -v user=bench-user-7 -v otid=7000000000000005 -f Benchmarks/explain-reads.sql
\set ON_ERROR_STOP on
\pset pager off

\echo == GET /v1/subscriptions/:otid (SubscriptionReader.subscription)
EXPLAIN (ANALYZE, BUFFERS)
SELECT t.environment, t.transaction_id, t.original_transaction_id, t.bundle_id, t.product_id, t.subscription_group_id,
       t.purchase_date, t.original_purchase_date, t.expires_date, t.web_order_line_item_id, t.is_trial_period,
       t.is_in_intro_offer_period, t.is_upgraded, t.cancellation_date, t.cancellation_reason, t.ownership_type,
       t.offer_code_ref_name, t.promotional_offer_id, t.source, t.stated_at, t.offer_type, t.app_account_token,
       r.environment AS renewal_environment, r.original_transaction_id AS renewal_original_transaction_id,
       r.bundle_id AS renewal_bundle_id, r.product_id AS renewal_product_id,
       r.auto_renew_product_id AS renewal_auto_renew_product_id, r.auto_renew_status AS renewal_auto_renew_status,
       r.expiration_intent AS renewal_expiration_intent,
       r.is_in_billing_retry_period AS renewal_is_in_billing_retry_period,
       r.grace_period_expires_date AS renewal_grace_period_expires_date,
       r.price_consent_status AS renewal_price_consent_status, r.observed_at AS renewal_observed_at,
       s.environment AS link_environment, s.original_transaction_id AS link_original_transaction_id,
       s.updated_at AS subscription_updated_at, p.subscription_group_id AS catalog_group_id
FROM (SELECT environment, original_transaction_id, updated_at FROM subscriptions
      WHERE original_transaction_id = :'otid' ORDER BY environment LIMIT 1) s
LEFT JOIN transactions t ON t.environment = s.environment AND t.original_transaction_id = s.original_transaction_id
LEFT JOIN renewal_info r ON r.environment = s.environment AND r.original_transaction_id = s.original_transaction_id
LEFT JOIN products p ON p.product_id = t.product_id;

\echo == GET /v1/subscribers/:user (SubscriptionReader.subscriber)
EXPLAIN (ANALYZE, BUFFERS)
SELECT t.environment, t.transaction_id, t.original_transaction_id, t.bundle_id, t.product_id, t.subscription_group_id,
       t.purchase_date, t.original_purchase_date, t.expires_date, t.web_order_line_item_id, t.is_trial_period,
       t.is_in_intro_offer_period, t.is_upgraded, t.cancellation_date, t.cancellation_reason, t.ownership_type,
       t.offer_code_ref_name, t.promotional_offer_id, t.source, t.stated_at, t.offer_type, t.app_account_token,
       r.environment AS renewal_environment, r.original_transaction_id AS renewal_original_transaction_id,
       r.bundle_id AS renewal_bundle_id, r.product_id AS renewal_product_id,
       r.auto_renew_product_id AS renewal_auto_renew_product_id, r.auto_renew_status AS renewal_auto_renew_status,
       r.expiration_intent AS renewal_expiration_intent,
       r.is_in_billing_retry_period AS renewal_is_in_billing_retry_period,
       r.grace_period_expires_date AS renewal_grace_period_expires_date,
       r.price_consent_status AS renewal_price_consent_status, r.observed_at AS renewal_observed_at,
       l.environment AS link_environment, l.original_transaction_id AS link_original_transaction_id,
       s.updated_at AS subscription_updated_at, p.subscription_group_id AS catalog_group_id
FROM subscribers l
LEFT JOIN transactions t ON t.environment = l.environment AND t.original_transaction_id = l.original_transaction_id
LEFT JOIN renewal_info r ON r.environment = l.environment AND r.original_transaction_id = l.original_transaction_id
LEFT JOIN subscriptions s ON s.environment = l.environment AND s.original_transaction_id = l.original_transaction_id
LEFT JOIN products p ON p.product_id = t.product_id
WHERE l.app_user_id = :'user'
ORDER BY l.environment, l.original_transaction_id;

\echo == POST /v1/eligibility :user, four products (CustomerFacts.load)
EXPLAIN (ANALYZE, BUFFERS)
WITH facts AS (
    SELECT t.environment, t.transaction_id, t.original_transaction_id, t.bundle_id, t.product_id, t.subscription_group_id,
           t.purchase_date, t.original_purchase_date, t.expires_date, t.web_order_line_item_id, t.is_trial_period,
           t.is_in_intro_offer_period, t.is_upgraded, t.cancellation_date, t.cancellation_reason, t.ownership_type,
           t.offer_code_ref_name, t.promotional_offer_id, t.source, t.stated_at, t.offer_type, t.app_account_token,
           r.environment AS renewal_environment, r.original_transaction_id AS renewal_original_transaction_id,
           r.bundle_id AS renewal_bundle_id, r.product_id AS renewal_product_id,
           r.auto_renew_product_id AS renewal_auto_renew_product_id, r.auto_renew_status AS renewal_auto_renew_status,
           r.expiration_intent AS renewal_expiration_intent,
           r.is_in_billing_retry_period AS renewal_is_in_billing_retry_period,
           r.grace_period_expires_date AS renewal_grace_period_expires_date,
           r.price_consent_status AS renewal_price_consent_status, r.observed_at AS renewal_observed_at,
           l.environment AS link_environment, l.original_transaction_id AS link_original_transaction_id,
           NULL::timestamptz AS subscription_updated_at, NULL::text AS catalog_group_id
    FROM subscribers l
    LEFT JOIN transactions t ON t.environment = l.environment AND t.original_transaction_id = l.original_transaction_id
    LEFT JOIN renewal_info r ON r.environment = l.environment AND r.original_transaction_id = l.original_transaction_id
    WHERE l.app_user_id = :'user'
), catalog AS (
    SELECT product_id AS catalog_product_id, bundle_id AS catalog_bundle_id, type AS catalog_type,
           subscription_group_id AS catalog_subscription_group_id, period AS catalog_period,
           intro_payment_mode AS catalog_intro_payment_mode, intro_period AS catalog_intro_period,
           intro_periods AS catalog_intro_periods, intro_price::text AS catalog_intro_price
    FROM products
    WHERE product_id = ANY('{com.example.pro.monthly,com.example.pro.yearly,com.example.premium.monthly,com.example.news.weekly}'::text[])
       OR product_id IN (SELECT product_id FROM facts)
)
SELECT f.*, c.* FROM facts f LEFT JOIN catalog c ON false
UNION ALL
SELECT f.*, c.* FROM catalog c LEFT JOIN facts f ON false;
