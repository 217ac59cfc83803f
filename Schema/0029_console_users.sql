-- Console users (DESIGN.md, "Console"): who may sign in to /console, with which role.
-- Only a bcrypt hash of each password is kept. A removed user's row stays with `removed_at`
-- set, so the audit log's `console:<name>` stays explained; the name cannot be taken again.
CREATE TABLE console_users (
    name          text PRIMARY KEY CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$'),
    role          text NOT NULL CHECK (role IN ('viewer', 'support', 'admin')),
    password_hash text NOT NULL CHECK (password_hash ~ '^\$2[aby]\$'),
    created_at    timestamptz NOT NULL DEFAULT now(),
    created_by    text NOT NULL,
    removed_at    timestamptz
);
