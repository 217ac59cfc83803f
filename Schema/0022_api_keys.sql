-- API keys with scopes and apps (DESIGN.md, "Access: API keys, scopes and apps").

-- One row per key ever made. Only the SHA-256 of the key's text is kept (hex): the text is shown
-- once by `subscriptionctl keys create` and cannot be read back. `apps` empty: every app.
-- A revoked key keeps its row (and its name), so the audit log's `key:<name>` stays
-- explained; its name cannot be given to a new key.
CREATE TABLE api_keys (
    name         text PRIMARY KEY CHECK (name ~ '^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$'),
    key_digest   text NOT NULL UNIQUE CHECK (key_digest ~ '^[0-9a-f]{64}$'),
    scopes       text[] NOT NULL CHECK (cardinality(scopes) > 0
                     AND scopes <@ ARRAY['read', 'write', 'offers', 'reports', 'admin']),
    apps         text[] NOT NULL DEFAULT '{}',
    created_at   timestamptz NOT NULL DEFAULT now(),
    created_by   text NOT NULL,
    expires_at   timestamptz,
    revoked_at   timestamptz,
    last_used_at timestamptz
);

-- Each process reloads the live keys every second (a revocation reaches every process
-- within about that); the partial index keeps that read to the live rows.
CREATE INDEX api_keys_live_idx ON api_keys (name) WHERE revoked_at IS NULL;
