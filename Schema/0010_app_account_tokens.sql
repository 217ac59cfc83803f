-- The app account tokens subscriptiond hands out (`GET /v1/subscribers/{id}/app-account-token`):
-- a UUIDv5 of (app, app user id) that the app passes to StoreKit as `appAccountToken`. A
-- purchase carrying one belongs to the user it was made for; a token not in this table is
-- taken as the app user id itself (apps that use their own UUIDs as user ids).
CREATE TABLE app_account_tokens (
    token       text PRIMARY KEY,            -- lower-case UUID text, as signed transactions carry it
    bundle_id   text NOT NULL,
    app_user_id text NOT NULL,
    created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX app_account_tokens_user_idx ON app_account_tokens (app_user_id);
