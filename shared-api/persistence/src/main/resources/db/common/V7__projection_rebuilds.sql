-- Projection rebuilds (query-service .../rebuild). The command service's rebuild task asks for one here and follows
-- it; a query replica claims it with a lease and records its progress in the same transaction as the rows it
-- rebuilt, so a rebuild resumes where it stood after its replica died. applied: the token set (per projection, per
-- segment) whose events are all in the new tables; target: the token set the pass in progress catches up to;
-- scanned_to and worker_done: how far each of the rebuild's workers got in that pass, and the events it looked at.
CREATE TABLE projection_rebuild (
    id                VARCHAR(24)  PRIMARY KEY,
    projections       TEXT[]       NOT NULL,
    require_identical BOOLEAN      NOT NULL DEFAULT false,
    status            TEXT         NOT NULL DEFAULT 'requested',
    cancel_requested  BOOLEAN      NOT NULL DEFAULT false,
    runner            TEXT,
    lease_until       TIMESTAMPTZ,
    applied           JSONB        NOT NULL DEFAULT '{}',
    target            JSONB,
    workers           INTEGER      NOT NULL DEFAULT 1,
    scanned_to        BIGINT[]     NOT NULL DEFAULT '{}',
    worker_done       BIGINT[]     NOT NULL DEFAULT '{}',
    passes            INTEGER      NOT NULL DEFAULT 0,
    events_done       BIGINT       NOT NULL DEFAULT 0,
    events_total      BIGINT       NOT NULL DEFAULT 0,
    digests           JSONB,
    identical         BOOLEAN,
    write_pause_ms    BIGINT,
    read_pause_ms     BIGINT,
    fail_reason       TEXT,
    requested_by      VARCHAR(24),
    requested_at      TIMESTAMPTZ  NOT NULL DEFAULT now(),
    started_at        TIMESTAMPTZ,
    finished_at       TIMESTAMPTZ
);
CREATE INDEX projection_rebuild_open ON projection_rebuild (requested_at) WHERE status IN ('requested', 'running');
