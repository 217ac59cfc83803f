-- Poison notifications and operator discards.
--
-- `unfinished_claims` counts claims since the last recorded outcome: a claim adds one, every
-- outcome (processed, retry, dead) and a replay set it back to 0. A notification whose
-- attempts keep stopping the process (a crash, a kill) climbs until the worker declares it
-- dead instead of claiming it again, so one input can never crash-loop the service.
ALTER TABLE notifications
    ADD COLUMN unfinished_claims integer NOT NULL DEFAULT 0;

-- Attempts gain two outcomes: 'abandoned' (claimed too often without an outcome; the worker
-- gave up on it) and 'discarded' (an operator's `notifications discard`), and `actor`:
-- who recorded the outcome when it was not the worker (`user@host` of the operator).
ALTER TABLE notification_attempts DROP CONSTRAINT notification_attempts_outcome_check;
ALTER TABLE notification_attempts
    ADD CONSTRAINT notification_attempts_outcome_check
        CHECK (outcome IN ('processed', 'retry', 'dead', 'abandoned', 'discarded')),
    ADD COLUMN actor text;
