-- What an offer charged and for how long (DESIGN.md, "Money and reports"): Apple's
-- `offerDiscountType` and `offerPeriod` of a signed transaction, so a pay-up-front period
-- counts its price over the offer's length in MRR.
ALTER TABLE transactions
    ADD COLUMN offer_discount_type text,
    ADD COLUMN offer_period        text;
