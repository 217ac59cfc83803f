-- A version 2 notification's certificate chains, stored once (issue 45). Apple puts the same
-- x5c chain (about 5.4 kB) in the header of a notification's JWS and of each JWS nested in it:
-- 16 of a notification's 18.7 kB. Intake now stores `signedPayload` with each chain replaced
-- by `"x5c":"sha256:<hex>"` (SignedPayloadChains) and the chain here, keyed by that id; readers
-- that show or export the body put it back, byte for byte. A handful of rows hold the chains of
-- all of Apple's traffic. Bodies stored before this migration keep their chains.
--
-- Expand only: a new table, nothing rewritten. The release before this one reads chainless
-- bodies as it reads whole ones (its worker decodes payloads without verifying them again).
CREATE TABLE certificate_chains (
    id            text PRIMARY KEY,                 -- 'sha256:' + hex SHA-256 of chain
    chain         text NOT NULL,                    -- the exact JSON text of the header's x5c array
    first_seen_at timestamptz NOT NULL DEFAULT now()
);
