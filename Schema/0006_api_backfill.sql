-- The App Store Server API: resumable backfills and queued transaction lookups.
--
-- `subscriptionctl notifications backfill` pages through Get Notification History; each
-- page's entries are stored, then its pagination token, so a backfill stopped by Ctrl-C or
-- a crash resumes where it was (one open run per app, environment, window and filter).
CREATE TABLE backfill_runs (
    id               bigserial PRIMARY KEY,
    bundle_id        text NOT NULL,
    environment      text NOT NULL CHECK (environment IN ('Production', 'Sandbox')),
    start_date       timestamptz NOT NULL,
    end_date         timestamptz NOT NULL,
    only_failures    boolean NOT NULL,
    pagination_token text,
    pages            integer NOT NULL DEFAULT 0,
    stored           integer NOT NULL DEFAULT 0,
    duplicates       integer NOT NULL DEFAULT 0,
    refused          integer NOT NULL DEFAULT 0,
    started_at       timestamptz NOT NULL DEFAULT now(),
    finished_at      timestamptz
);
CREATE UNIQUE INDEX backfill_runs_open_idx ON backfill_runs (bundle_id, environment, start_date, end_date, only_failures)
    WHERE finished_at IS NULL;

-- `POST /v1/transactions {"transaction_id"}` while the App Store Server API is unavailable:
-- the lookup is queued in the inbox (source 'transaction') and finished by the worker.
ALTER TABLE notifications DROP CONSTRAINT notifications_source_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_source_check
    CHECK (source IN ('v1', 'v2', 'receipt', 'transaction'));
