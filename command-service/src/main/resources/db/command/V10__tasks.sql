-- The runner's view of every task, kept by TaskRunLookup in the same transaction as the task events, so it never
-- disagrees with the log. Runners claim rows with FOR UPDATE SKIP LOCKED; a claim sets runner_id and lease_until,
-- which only runners write (the lookup clears them when a task ends). seq gives the order of tasks per project.
CREATE TABLE task_run (
    task_id         VARCHAR(24)  PRIMARY KEY,
    project_id      VARCHAR(24)  NOT NULL,
    organisation_id VARCHAR(24)  NOT NULL,
    type            TEXT         NOT NULL,
    seq             BIGSERIAL    NOT NULL,
    status          TEXT         NOT NULL,
    runner_id       TEXT,
    lease_until     TIMESTAMPTZ,
    attempts        INTEGER      NOT NULL DEFAULT 0,
    parameters      TEXT         NOT NULL, -- JSON object, as created
    created_by      VARCHAR(24)  NOT NULL,
    creator_role    TEXT         NOT NULL
);
-- Only unfinished tasks take part in claims: the claim query and the per-project "is anything before me" test stay
-- on a small index however many finished tasks there are.
CREATE INDEX task_run_open ON task_run (project_id, seq) WHERE status IN ('queued', 'active', 'cancelling');
CREATE INDEX task_run_open_seq ON task_run (seq) WHERE status IN ('queued', 'active', 'cancelling');
