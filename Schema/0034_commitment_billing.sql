-- Monthly-billed subscriptions with a 12-month commitment (App Store Server API 1.21;
-- DESIGN.md, "Apple's 2025–2026 server features"): a signed transaction's `billingPlanType`
-- and its `commitmentInfo.commitmentExpiresDate`. Nullable columns without defaults: adding
-- them rewrites nothing.
ALTER TABLE transactions
    ADD COLUMN billing_plan_type     text,
    ADD COLUMN commitment_expires_at timestamptz;
