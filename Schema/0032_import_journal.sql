-- `subscriptionctl import FILE.csv`: existing customers moved in, looked up with Apple a row
-- at a time. The journal is here, not beside the file, so a rerun from any machine that runs
-- the CLI resumes the same import.
--
-- A run is named by its file's SHA-256; each row's outcome is written as the row finishes,
-- so `--resume` skips the rows already done (at most those in flight when the run stopped are
-- looked up again). One unfinished run per file.
CREATE TABLE import_runs (
    id           bigserial PRIMARY KEY,
    file_sha256  text NOT NULL CHECK (file_sha256 ~ '^[0-9a-f]{64}$'),
    file_name    text NOT NULL,
    bundle_id    text NOT NULL,
    rows         integer NOT NULL CHECK (rows >= 0),
    started_at   timestamptz NOT NULL DEFAULT now(),
    finished_at  timestamptz,
    -- Set when the run was given up for a new one (`--restart`).
    abandoned_at timestamptz
);
CREATE UNIQUE INDEX import_runs_open_idx ON import_runs (file_sha256) WHERE finished_at IS NULL AND abandoned_at IS NULL;

CREATE TABLE import_rows (
    run_id      bigint NOT NULL REFERENCES import_runs (id) ON DELETE CASCADE,
    line        integer NOT NULL CHECK (line > 0),
    outcome     text NOT NULL CHECK (outcome IN ('imported', 'already_there', 'refused')),
    reason      text,
    finished_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (run_id, line)
);
