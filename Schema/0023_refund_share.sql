-- Money (DESIGN.md, "Money and reports"): a prorated refund's share, as Apple states it
-- (`revocationPercentage`, thousandths of a percent: 50000 is half), kept with the refund.
ALTER TABLE transactions ADD COLUMN revocation_percentage integer
    CHECK (revocation_percentage BETWEEN 0 AND 100000);
