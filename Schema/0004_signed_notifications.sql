-- Version 2 (signed) notifications and the facts they carry.
--
-- notifications: v2 entries keep Apple's `subtype` beside `notification_type`; their body is
-- `{"signedPayload": "<JWS>"}` exactly as received (Apple's evidence, re-verifiable).
ALTER TABLE notifications
    ADD COLUMN notification_subtype text;

-- transactions: where each fact came from (a verifyReceipt answer or a signed transaction),
-- when Apple stated it (the answer's arrival, or the signed transaction's signedDate: the
-- newest statement decides whether a refund still stands, so a reversed refund un-revokes),
-- the period's offer type (1 introductory, 2 promotional, 3 offer code, 4 win-back) and the
-- app's account token, which links a subscription to the app's user without any call.
ALTER TABLE transactions
    ADD COLUMN source            text NOT NULL DEFAULT 'v1' CHECK (source IN ('v1', 'v2')),
    ADD COLUMN stated_at         timestamptz,
    ADD COLUMN offer_type        integer,
    ADD COLUMN app_account_token text;
