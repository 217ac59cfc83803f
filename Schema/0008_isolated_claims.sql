-- Poison is judged one entry at a time.
--
-- Until now every claim without an outcome counted toward poison, so the neighbours of a
-- poison entry (claimed in the same round, in flight when it stopped the process) died with
-- it, and an attempt that outlived its lease counted as a death. Now an entry with an
-- unfinished claim is a *suspect*: the worker claims suspects one at a time with nothing
-- else in flight, and only those isolated claims that end without an outcome (the process
-- died running that entry alone) count. `isolated_claims` is that count; every outcome and
-- a replay set it back to 0, as they do `unfinished_claims`.
ALTER TABLE notifications
    ADD COLUMN isolated_claims integer NOT NULL DEFAULT 0;

-- The worker's question "is any suspect due?", asked while other attempts run.
CREATE INDEX notifications_suspect_due_idx ON notifications (next_attempt_at, id)
    WHERE state IN ('pending', 'retrying') AND unfinished_claims > 0;
