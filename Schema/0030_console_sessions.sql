-- Console sessions (DESIGN.md, "Console"): kept here so every process of a deployment knows
-- them. Only a SHA-256 of the cookie's random id is stored, so a read of this table cannot
-- sign anyone in. A session ends when it sits unused past the idle limit, at sign-out, or
-- when its user is removed (the row goes with the user's removal).
CREATE TABLE console_sessions (
    id_hash      bytea PRIMARY KEY CHECK (octet_length(id_hash) = 32),
    user_name    text NOT NULL REFERENCES console_users (name),
    csrf_token   text NOT NULL CHECK (length(csrf_token) >= 32),
    created_at   timestamptz NOT NULL DEFAULT now(),
    last_seen_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX console_sessions_user ON console_sessions (user_name);
CREATE INDEX console_sessions_last_seen ON console_sessions (last_seen_at);
