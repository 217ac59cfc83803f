-- What the app's backend knows of one purchase when its customer asks Apple for a refund
-- (`PUT /v1/purchases/{transaction_id}/consumption`; DESIGN.md, "Apple's 2025–2026 server
-- features"): how much of it was consumed (Apple's `consumptionPercentage`, in milliunits of a
-- percent: 0 to 100000) and whether it was delivered. Sent with Send Consumption Information V2
-- instead of the app's `consumption` defaults. One row per transaction, replaced by each report.
CREATE TABLE purchase_consumption (
    transaction_id         text PRIMARY KEY,
    consumption_percentage integer CHECK (consumption_percentage BETWEEN 0 AND 100000),
    delivery_status        text,
    updated_at             timestamptz NOT NULL DEFAULT now(),
    updated_by             text NOT NULL,
    CHECK (consumption_percentage IS NOT NULL OR delivery_status IS NOT NULL)
);
