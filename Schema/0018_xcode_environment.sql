-- Purchases made with StoreKit Testing in Xcode (an app's `xcode_certificate_file`): stored
-- with the environment `Xcode`, beside Production and Sandbox, in the tables a signed
-- transaction reaches. Notifications, API lookups and their runs never have it: Apple's
-- servers know nothing of these purchases. `subscriptionctl purge --environment Xcode`
-- removes them.
ALTER TABLE transactions DROP CONSTRAINT transactions_environment_check,
    ADD CONSTRAINT transactions_environment_check CHECK (environment IN ('Production', 'Sandbox', 'Xcode'));
ALTER TABLE renewal_info DROP CONSTRAINT renewal_info_environment_check,
    ADD CONSTRAINT renewal_info_environment_check CHECK (environment IN ('Production', 'Sandbox', 'Xcode'));
ALTER TABLE subscriptions DROP CONSTRAINT subscriptions_environment_check,
    ADD CONSTRAINT subscriptions_environment_check CHECK (environment IN ('Production', 'Sandbox', 'Xcode'));
ALTER TABLE subscribers DROP CONSTRAINT subscribers_environment_check,
    ADD CONSTRAINT subscribers_environment_check CHECK (environment IN ('Production', 'Sandbox', 'Xcode'));
ALTER TABLE status_events DROP CONSTRAINT status_events_environment_check,
    ADD CONSTRAINT status_events_environment_check CHECK (environment IN ('Production', 'Sandbox', 'Xcode'));
ALTER TABLE webhook_events DROP CONSTRAINT webhook_events_environment_check,
    ADD CONSTRAINT webhook_events_environment_check CHECK (environment IN ('Production', 'Sandbox', 'Xcode'));
