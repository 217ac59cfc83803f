-- The reports' daily rollups (DESIGN.md, "Money and reports"), kept as facts change.
--
-- Applying facts to a purchase chain queues it in `report_changes` (in the same
-- transaction); the rollup job recomputes each queued chain's share, adds the difference
-- from its old share to `report_daily` and replaces its `report_spans`, in one transaction.
-- `subscriptionctl reports rebuild` recomputes every chain and must give the same numbers.

-- Chains whose facts changed since their share was last counted.
CREATE TABLE report_changes (
    environment             text NOT NULL,
    original_transaction_id text NOT NULL,
    changed_at              timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (environment, original_transaction_id)
);

-- Sums per measure, UTC day, app, product, storefront ('' when unknown) and currency
-- ('' for counts). A level (active, trial, mrr, mrr_proceeds) is kept as its changes: the
-- level at a midnight is the sum of the changes on or before it.
CREATE TABLE report_daily (
    environment text NOT NULL,
    measure     text NOT NULL,
    day         date NOT NULL,
    bundle_id   text NOT NULL,
    product_id  text NOT NULL,
    storefront  text NOT NULL,
    currency    text NOT NULL,
    amount      numeric NOT NULL,
    PRIMARY KEY (environment, measure, day, bundle_id, product_id, storefront, currency)
);

-- Each chain's share of `report_daily`, as last counted (what to take away when it changes).
-- `amounts` holds one line per amount: measure, day, product, storefront, currency and
-- amount, separated by tabs (the chain's environment and app are its own).
CREATE TABLE report_chains (
    environment             text NOT NULL,
    original_transaction_id text NOT NULL,
    bundle_id               text NOT NULL,
    amounts                 text NOT NULL,
    counted_at              timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (environment, original_transaction_id)
);

-- What is not a sum of days: paid stretches with their runs (churn), open trials (pending
-- conversions), unpriced periods and sales (the answers' warnings).
CREATE TABLE report_spans (
    environment             text NOT NULL,
    original_transaction_id text NOT NULL,
    kind                    text NOT NULL CHECK (kind IN ('paid', 'open_trial', 'unpriced_period', 'unpriced_sale')),
    starts_at               timestamptz NOT NULL,
    ends_at                 timestamptz,
    run_ends_at             timestamptz,
    next_run_starts_at      timestamptz,
    bundle_id               text NOT NULL,
    product_id              text NOT NULL,
    storefront              text NOT NULL,
    transaction_id          text
);
CREATE INDEX report_spans_chain_idx ON report_spans (environment, original_transaction_id);
CREATE INDEX report_spans_run_end_idx ON report_spans (environment, run_ends_at) WHERE kind = 'paid';
CREATE INDEX report_spans_open_trial_idx ON report_spans (environment, ends_at) WHERE kind = 'open_trial';
CREATE INDEX report_spans_unpriced_idx ON report_spans (environment, kind, starts_at) WHERE kind IN ('unpriced_period', 'unpriced_sale');

-- What the shares were computed with (prices, periods, tax, Small Business Program): when
-- it differs from the running configuration's (or is absent, as after this migration),
-- every chain is counted again.
CREATE TABLE report_rollup_state (
    singleton   boolean PRIMARY KEY DEFAULT true CHECK (singleton),
    fingerprint text NOT NULL,
    rebuilt_at  timestamptz NOT NULL DEFAULT now()
);
