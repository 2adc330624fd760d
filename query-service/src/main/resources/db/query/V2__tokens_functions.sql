-- Tokens (the API's snippets) and Functions. Default tokens are rows with is_default = true: readable by id,
-- never listed, so the list indexes leave them out.
CREATE TABLE token_view (
    id              VARCHAR(24) PRIMARY KEY,
    project_id      VARCHAR(24) NOT NULL,
    organisation_id VARCHAR(24) NOT NULL,
    reference_id    TEXT        NOT NULL,
    label           TEXT        NOT NULL,
    token_type      TEXT        NOT NULL,
    script          TEXT        NOT NULL,
    is_default      BOOLEAN     NOT NULL,
    created_at      BIGINT      NOT NULL,
    last_changed    BIGINT      NOT NULL,
    created_by      VARCHAR(24) NOT NULL,
    last_changed_by VARCHAR(24) NOT NULL
);
CREATE INDEX token_view_created ON token_view (organisation_id, project_id, created_at, id) WHERE NOT is_default;
CREATE INDEX token_view_label ON token_view (organisation_id, project_id, lower(label), id) WHERE NOT is_default;
CREATE INDEX token_view_project ON token_view (project_id);

CREATE TABLE function_view (
    id              VARCHAR(24) PRIMARY KEY,
    project_id      VARCHAR(24) NOT NULL,
    organisation_id VARCHAR(24) NOT NULL,
    reference_id    TEXT        NOT NULL,
    name            TEXT        NOT NULL,
    code            TEXT        NOT NULL,
    is_disabled     BOOLEAN     NOT NULL,
    created_at      BIGINT      NOT NULL,
    last_changed    BIGINT      NOT NULL,
    created_by      VARCHAR(24) NOT NULL,
    last_changed_by VARCHAR(24) NOT NULL
);
CREATE INDEX function_view_created ON function_view (organisation_id, created_at, id);
CREATE INDEX function_view_name ON function_view (organisation_id, lower(name), id);
CREATE INDEX function_view_project_created ON function_view (organisation_id, project_id, created_at, id);
CREATE INDEX function_view_project_name ON function_view (organisation_id, project_id, lower(name), id);
CREATE INDEX function_view_project ON function_view (project_id);

-- The live projects as the function projection has seen them (created, not deleted): a function event that
-- commits after its project's deletion finds no row here and leaves no orphan.
CREATE TABLE function_project (
    project_id VARCHAR(24) PRIMARY KEY
);
