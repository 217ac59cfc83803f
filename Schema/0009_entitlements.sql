-- Entitlements, every purchase, grandfathering and manual grants (DESIGN.md, "Entitlements,
-- purchases and ownership"; docs/entitlements.md).

-- Every verified purchase is a `transactions` row, one-time purchases too (consumables,
-- non-consumables, non-renewing subscriptions: no `expires_date`). What Apple says of the
-- sale, where it says it (v2 signed transactions; receipts give only the quantity).
ALTER TABLE transactions
    ADD COLUMN product_type     text CHECK (product_type IN ('auto_renewable', 'non_renewing', 'consumable', 'non_consumable')),
    ADD COLUMN quantity         integer,
    ADD COLUMN price_milliunits bigint,
    ADD COLUMN currency         text,
    ADD COLUMN storefront       text,
    ADD COLUMN revocation_type  text;

-- A free tier-0 non-consumable that grants an entitlement for a while (the 2018 pattern for
-- trials in apps without subscriptions).
ALTER TABLE products
    ADD COLUMN trial_of     text,
    ADD COLUMN trial_period text,
    ADD CHECK ((trial_of IS NULL) = (trial_period IS NULL)),
    ADD CHECK (trial_of IS NULL OR type = 'non_consumable');

-- The catalog's entitlements and the products that grant them.
CREATE TABLE entitlements (
    entitlement_id text PRIMARY KEY,
    updated_at     timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE entitlement_products (
    entitlement_id text NOT NULL REFERENCES entitlements (entitlement_id) ON DELETE CASCADE,
    product_id     text NOT NULL REFERENCES products (product_id) ON DELETE CASCADE,
    PRIMARY KEY (entitlement_id, product_id)
);

-- The version of an app a user's Apple account first bought, as Apple vouched for it (a
-- verified receipt's `original_application_version`, a verified AppTransaction's
-- `originalApplicationVersion`): the newest proof per user, app and environment.
CREATE TABLE original_application_versions (
    app_user_id        text NOT NULL,
    bundle_id          text NOT NULL,
    environment        text NOT NULL CHECK (environment IN ('Production', 'Sandbox')),
    version            text NOT NULL,
    app_transaction_id text,
    proof              text NOT NULL CHECK (proof IN ('receipt', 'app_transaction')),
    recorded_at        timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (app_user_id, bundle_id, environment)
);

-- Manual grants: support, comps. Never deleted: a revoked grant keeps its row.
CREATE TABLE entitlement_grants (
    id             bigserial PRIMARY KEY,
    app_user_id    text NOT NULL,
    entitlement_id text NOT NULL,
    expires_at     timestamptz,
    reason         text NOT NULL CHECK (reason <> ''),
    created_at     timestamptz NOT NULL DEFAULT now(),
    revoked_at     timestamptz
);
CREATE INDEX entitlement_grants_user_idx ON entitlement_grants (app_user_id);

-- What operators did by hand, in order: grants given and revoked, links removed, users
-- forgotten (that row names no user). `detail` is the action's JSON; it never holds a secret or a receipt.
CREATE TABLE audit_log (
    id          bigserial PRIMARY KEY,
    occurred_at timestamptz NOT NULL DEFAULT now(),
    actor       text NOT NULL,            -- 'api' (the query API's token) or 'cli:<OS user>'
    action      text NOT NULL,            -- 'grant_added', 'grant_revoked', 'user_unlinked', 'subscriber_deleted'
    app_user_id text,
    detail      jsonb NOT NULL
);
CREATE INDEX audit_log_user_idx ON audit_log (app_user_id, id);

-- Forgetting a user finds the purchases it queued (`DELETE /v1/subscribers/{id}`).
CREATE INDEX notifications_app_user_idx ON notifications (app_user_id) WHERE app_user_id IS NOT NULL;

-- The entitlements read: one stored answer beside the subscriber document, kept current by
-- the same versioning (Schema/0007_read_answers.sql).
ALTER TABLE subscriber_answers ADD COLUMN entitlements_body text;

-- A user's grants or versions changed: their answers are stale (the function of a link
-- change, which reads only `app_user_id`).
CREATE TRIGGER original_application_versions_answers AFTER INSERT OR UPDATE OR DELETE ON original_application_versions
    FOR EACH ROW EXECUTE FUNCTION answers_link_row_changed();
CREATE TRIGGER entitlement_grants_answers AFTER INSERT OR UPDATE OR DELETE ON entitlement_grants
    FOR EACH ROW EXECUTE FUNCTION answers_link_row_changed();
CREATE TRIGGER entitlements_answers AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON entitlements
    FOR EACH STATEMENT EXECUTE FUNCTION answers_all_changed();
CREATE TRIGGER entitlement_products_answers AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON entitlement_products
    FOR EACH STATEMENT EXECUTE FUNCTION answers_all_changed();
CREATE TRIGGER original_application_versions_truncate AFTER TRUNCATE ON original_application_versions
    FOR EACH STATEMENT EXECUTE FUNCTION answers_all_changed();
CREATE TRIGGER entitlement_grants_truncate AFTER TRUNCATE ON entitlement_grants
    FOR EACH STATEMENT EXECUTE FUNCTION answers_all_changed();
