-- What an offer charged and for how long (DESIGN.md, "Money and reports"): Apple's
-- `offerDiscountType` and `offerPeriod` of a signed transaction, so a pay-up-front period
-- counts its price over the offer's length in MRR; and what the next renewal will cost,
-- the signed renewal info's `renewalPrice` and `currency`.
ALTER TABLE transactions
    ADD COLUMN offer_discount_type text,
    ADD COLUMN offer_period        text;
ALTER TABLE renewal_info
    ADD COLUMN renewal_price_milliunits bigint,
    ADD COLUMN renewal_currency         text;
