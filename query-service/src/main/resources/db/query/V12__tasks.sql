-- Tasks as the API shows them. Steps are BIGINT like every other sortable number of the list engine.
CREATE TABLE task_view (
    id              VARCHAR(24) PRIMARY KEY,
    project_id      VARCHAR(24) NOT NULL,
    organisation_id VARCHAR(24) NOT NULL,
    type            TEXT        NOT NULL,
    status          TEXT        NOT NULL,
    parameters      TEXT        NOT NULL, -- JSON object
    current_step    BIGINT      NOT NULL,
    total_step      BIGINT      NOT NULL,
    fail_reason     TEXT,
    created_at      BIGINT      NOT NULL,
    last_changed    BIGINT      NOT NULL,
    created_by      VARCHAR(24) NOT NULL,
    last_changed_by VARCHAR(24) NOT NULL
);
CREATE INDEX task_view_created ON task_view (organisation_id, project_id, created_at, id);
CREATE INDEX task_view_project ON task_view (project_id);
