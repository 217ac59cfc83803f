-- What the next renewal will cost (DESIGN.md, "Money and reports"): the signed renewal
-- info's `renewalPrice` (milliunits) and `currency`.
ALTER TABLE renewal_info
    ADD COLUMN renewal_price_milliunits bigint,
    ADD COLUMN renewal_currency         text;
