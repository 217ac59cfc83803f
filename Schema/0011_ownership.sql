-- Who owns a purchase (DESIGN.md, "Who owns a purchase"): links follow each app's
-- link_policy, and a user who loses a purchase gets a user_unlinked event.
ALTER TABLE webhook_events DROP CONSTRAINT webhook_events_type_check;
ALTER TABLE webhook_events ADD CONSTRAINT webhook_events_type_check
    CHECK (type IN ('subscription_created', 'status_changed', 'user_linked', 'user_unlinked'));
