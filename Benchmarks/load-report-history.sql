-- Loads :count synthetic purchase chains spread over the last 400 days straight into
-- `transactions` (as load-subscribers.sql does for the reads: going through Apple for a
-- million customers would measure the simulator), for the reports benchmark.
--
-- Chain n (original transaction 9000000000000000 + n) starts (n * 7919) % 400 days ago:
--   n % 3 = 0   a free week first;
--   n % 5 = 0   yearly (one period), else monthly: (n * 31) % 14 paid periods of 30 days,
--               as many as fit before now (a chain whose periods ran out has churned);
--   n % 4       its storefront and currency: USA/USD 9.99, DEU/EUR 8.99, GBR/GBP 7.99, JPN/JPY 1200
--               a month (a year: six times that);
--   n % 23 = 0  its last paid period refunded prorated (half), n % 29 = 0 in full;
--   n % 10 = 9  Sandbox.
--   psql "$DATABASE_URL" -v count=1000000 -f Benchmarks/load-report-history.sql
BEGIN;
CREATE TEMP TABLE bench_chains AS
SELECT n,
       (9000000000000000 + n)::text AS otid,
       CASE WHEN n % 10 = 9 THEN 'Sandbox' ELSE 'Production' END AS environment,
       date_trunc('second', now()) - make_interval(days => ((n * 7919) % 400)::int, hours => (n % 24)::int) AS started,
       n % 3 = 0 AS trial,
       n % 5 = 0 AS yearly,
       (CASE WHEN n % 5 = 0 THEN 1 ELSE (n * 31) % 14 END)::int AS periods,
       (ARRAY['USD', 'EUR', 'GBP', 'JPY'])[(n % 4 + 1)::int] AS currency,
       (ARRAY['USA', 'DEU', 'GBR', 'JPN'])[(n % 4 + 1)::int] AS storefront,
       (ARRAY[9990, 8990, 7990, 1200000])[(n % 4 + 1)::int]::bigint AS monthly_milliunits,
       n % 23 = 0 AS prorated,
       n % 29 = 0 AS full_refund
FROM generate_series(1::bigint, :count) AS n;

-- The free week.
INSERT INTO transactions (environment, transaction_id, original_transaction_id, bundle_id, product_id,
    subscription_group_id, purchase_date, original_purchase_date, expires_date, is_trial_period,
    ownership_type, stated_at, source, product_type, price_milliunits, currency, storefront)
SELECT c.environment, c.otid || '-t', c.otid, 'com.example.app',
       CASE WHEN c.yearly THEN 'com.example.pro.yearly' ELSE 'com.example.pro.monthly' END, '20500000',
       c.started, c.started, c.started + interval '7 days', true, 'PURCHASED', now(), 'v2', 'auto_renewable', 0,
       c.currency, c.storefront
FROM bench_chains c WHERE c.trial;

-- The paid periods that began before now.
INSERT INTO transactions (environment, transaction_id, original_transaction_id, bundle_id, product_id,
    subscription_group_id, purchase_date, original_purchase_date, expires_date, is_trial_period,
    cancellation_date, cancellation_reason, revocation_type, revocation_percentage,
    ownership_type, stated_at, source, product_type, price_milliunits, currency, storefront)
SELECT c.environment, c.otid || '-' || p, c.otid, 'com.example.app',
       CASE WHEN c.yearly THEN 'com.example.pro.yearly' ELSE 'com.example.pro.monthly' END, '20500000',
       s.at, c.started, s.at + CASE WHEN c.yearly THEN interval '365 days' ELSE interval '30 days' END, false,
       CASE WHEN (c.prorated OR c.full_refund) AND p = c.periods - 1 THEN s.at + interval '3 days' END,
       CASE WHEN (c.prorated OR c.full_refund) AND p = c.periods - 1 THEN '0' END,
       CASE WHEN c.prorated AND p = c.periods - 1 THEN 'REFUND_PRORATED'
            WHEN c.full_refund AND p = c.periods - 1 THEN 'REFUND_FULL' END,
       CASE WHEN c.prorated AND p = c.periods - 1 THEN 50000 END,
       'PURCHASED', now(), 'v2', 'auto_renewable',
       c.monthly_milliunits * CASE WHEN c.yearly THEN 6 ELSE 1 END, c.currency, c.storefront
FROM bench_chains c
CROSS JOIN LATERAL generate_series(0, c.periods - 1) AS p
CROSS JOIN LATERAL (SELECT c.started + CASE WHEN c.trial THEN interval '7 days' ELSE interval '0' END
                           + make_interval(days => 30 * p) AS at) AS s
WHERE s.at <= now();
COMMIT;
ANALYZE transactions;
