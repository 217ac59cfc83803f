-- Trust boundaries (DESIGN.md, "Offers and trust boundaries").

-- The app account tokens of forgotten users: a purchase carrying one links nobody, whatever
-- Apple says later. Only the token is kept (an opaque UUID that no longer leads to anyone).
CREATE TABLE forgotten_app_account_tokens (
    token        text PRIMARY KEY,
    forgotten_at timestamptz NOT NULL DEFAULT now()
);

-- One token per user and app: a token is stored when first asked for, and a user asked for
-- again after being forgotten gets a new one (issued tokens carry a random part since 0021).
CREATE UNIQUE INDEX app_account_tokens_user_app_idx ON app_account_tokens (bundle_id, app_user_id);

-- A link made only because a purchase's token (naming nobody here) was the user's id: such a
-- link does not make its user one who exists here, or a hint would make itself binding (and
-- the customer proving the purchase afterwards would be refused). Links made so before 0021
-- are found as the links whose user id is a token of the purchase that was never issued.
ALTER TABLE subscribers ADD COLUMN via_hint boolean NOT NULL DEFAULT false;
UPDATE subscribers s SET via_hint = true
WHERE EXISTS (SELECT 1 FROM transactions t
              WHERE t.environment = s.environment AND t.original_transaction_id = s.original_transaction_id
                AND t.app_account_token = s.app_user_id)
  AND NOT EXISTS (SELECT 1 FROM app_account_tokens a WHERE a.token = s.app_user_id);

-- Offers are signed for an Apple account: everything sharing its appTransactionId.
CREATE INDEX transactions_app_transaction_idx ON transactions (app_transaction_id) WHERE app_transaction_id IS NOT NULL;

-- What each app account token says of its user: `forgotten` (a forgotten user's: it names
-- nobody), `issued` (handed out here for `app_user_id`), `existing_user` (equal to the id of
-- an app user known here, as is or in upper case: apps that use their own UUIDs as user ids;
-- a link made by a hint does not count) or `hint` (it names nobody here; `app_user_id` is the
-- token itself). The owner rule (FactApplication, through FactStore.load) and consent
-- (purchase_owners) read it, so they cannot disagree.
CREATE FUNCTION app_account_token_owners(p_tokens text[])
RETURNS TABLE (token text, kind text, app_user_id text)
LANGUAGE sql STABLE AS $$
    SELECT given.token,
           CASE WHEN f.token IS NOT NULL THEN 'forgotten'
                WHEN issued.app_user_id IS NOT NULL THEN 'issued'
                WHEN known.app_user_id IS NOT NULL THEN 'existing_user'
                ELSE 'hint' END,
           CASE WHEN f.token IS NOT NULL THEN NULL
                ELSE coalesce(issued.app_user_id, known.app_user_id, given.token) END
    FROM unnest(p_tokens) AS given(token)
    LEFT JOIN forgotten_app_account_tokens f ON f.token = given.token
    LEFT JOIN app_account_tokens issued ON issued.token = given.token
    LEFT JOIN LATERAL (
        SELECT candidate AS app_user_id
        FROM unnest(ARRAY[given.token, upper(given.token)]) AS candidate
        WHERE EXISTS (SELECT 1 FROM subscribers s WHERE s.app_user_id = candidate AND NOT s.via_hint)
           OR EXISTS (SELECT 1 FROM app_account_tokens a WHERE a.app_user_id = candidate)
           OR EXISTS (SELECT 1 FROM original_application_versions v WHERE v.app_user_id = candidate)
           OR EXISTS (SELECT 1 FROM entitlement_grants g WHERE g.app_user_id = candidate)
        LIMIT 1
    ) known ON true
$$;

-- What the newest appAccountToken among a purchase's transactions says of its owner (no row:
-- no transaction of the purchase carries a token).
CREATE FUNCTION purchase_token_owner(p_environment text, p_original_transaction_id text)
RETURNS TABLE (token text, kind text, app_user_id text)
LANGUAGE sql STABLE AS $$
    SELECT o.token, o.kind, o.app_user_id
    FROM (SELECT t.app_account_token FROM transactions t
          WHERE t.environment = p_environment AND t.original_transaction_id = p_original_transaction_id
            AND t.app_account_token IS NOT NULL
          ORDER BY t.purchase_date DESC, t.transaction_id DESC
          LIMIT 1) newest
    CROSS JOIN LATERAL app_account_token_owners(ARRAY[newest.app_account_token]) o
$$;

-- Who owns a purchase of an app now: the user its token binds (`issued` or `existing_user`)
-- when it carries such a token, else the users linked to it in that app. Consent to share
-- consumption data counts only from them (a user merely sharing the purchase under `share`,
-- or linked from another app, does not answer for its buyer).
CREATE FUNCTION purchase_owners(p_environment text, p_original_transaction_id text, p_bundle_id text)
RETURNS TABLE (app_user_id text)
LANGUAGE sql STABLE AS $$
    WITH bound AS (
        SELECT o.app_user_id FROM purchase_token_owner(p_environment, p_original_transaction_id) o
        WHERE o.kind IN ('issued', 'existing_user')
    )
    SELECT app_user_id FROM bound
    UNION ALL
    SELECT s.app_user_id FROM subscribers s
    WHERE s.environment = p_environment AND s.original_transaction_id = p_original_transaction_id
      AND s.bundle_id = p_bundle_id AND NOT EXISTS (SELECT 1 FROM bound)
$$;
