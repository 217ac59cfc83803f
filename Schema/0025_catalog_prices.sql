-- Catalog prices (DESIGN.md, "Money and reports"): what a product costs, for purchases Apple
-- does not price (v1 receipts): a default price and currency, and per storefront
-- `{"DEU": {"price": "9.99", "currency": "EUR"}}`.
ALTER TABLE products
    ADD COLUMN price    numeric CHECK (price >= 0),
    ADD COLUMN currency text CHECK (currency ~ '^[A-Z]{3}$'),
    ADD COLUMN prices   jsonb,
    ADD CONSTRAINT products_price_currency CHECK ((price IS NULL) = (currency IS NULL));
