-- Bookkeeping for `subscriptionctl revalidate`, so that an interrupted `revalidate --all`
-- resumes where it stopped instead of starting over.
--
-- A run is open until it went through every candidate once; at most one run is open.
-- `revalidate --all` resumes the open run: it skips subscriptions whose `revalidated_at`
-- is at or after the run's `started_at` (the server's clock on both sides).

ALTER TABLE subscriptions
    ADD COLUMN revalidated_at       timestamptz,   -- last time revalidate got a final answer for it
    ADD COLUMN revalidation_outcome text;          -- 'verified' or 'rejected: <reason>'

CREATE TABLE revalidation_runs (
    id          bigserial PRIMARY KEY,
    started_at  timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz,
    abandoned   boolean NOT NULL DEFAULT false     -- closed by `revalidate --all --restart`
);
-- At most one open run.
CREATE UNIQUE INDEX revalidation_runs_open_idx ON revalidation_runs ((true)) WHERE finished_at IS NULL;
