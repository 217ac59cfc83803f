-- Exchange rates for the reports (DESIGN.md, "Money and reports"): on `day`, one unit of
-- `currency` was worth `rate` units of `quote` (the REPORT_CURRENCY they were imported for).
-- A report converts an amount at the newest rate on or before its day.
CREATE TABLE exchange_rates (
    quote       text NOT NULL CHECK (quote ~ '^[A-Z]{3}$'),
    currency    text NOT NULL CHECK (currency ~ '^[A-Z]{3}$' AND currency <> quote),
    day         date NOT NULL,
    rate        numeric NOT NULL CHECK (rate > 0),
    imported_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (quote, currency, day)
);
