-- Snapshots, read side: the meta of each created snapshot (its content stays on the command side).
CREATE TABLE snapshot_view (
    id              VARCHAR(24) PRIMARY KEY,
    project_id      VARCHAR(24) NOT NULL,
    organisation_id VARCHAR(24) NOT NULL,
    name            TEXT        NOT NULL,
    description     TEXT        NOT NULL,
    hash            CHAR(64)    NOT NULL,
    created_at      BIGINT      NOT NULL,
    created_by      VARCHAR(24) NOT NULL
);
CREATE INDEX snapshot_view_by_project ON snapshot_view (organisation_id, project_id, created_at, id);
