-- Flows and their (deprecated) states. Lists are (tenant, parent, sort key, id) indexed like the others.
CREATE TABLE flow_view (
    id              VARCHAR(24) PRIMARY KEY,
    project_id      VARCHAR(24) NOT NULL,
    organisation_id VARCHAR(24) NOT NULL,
    reference_id    TEXT        NOT NULL,
    name            TEXT        NOT NULL,
    description     TEXT        NOT NULL,
    created_at      BIGINT      NOT NULL,
    last_changed    BIGINT      NOT NULL,
    created_by      VARCHAR(24) NOT NULL,
    last_changed_by VARCHAR(24) NOT NULL
);
-- The list runs per project (projectId) or per organisation (without it).
CREATE INDEX flow_view_created ON flow_view (organisation_id, project_id, created_at, id);
CREATE INDEX flow_view_name ON flow_view (organisation_id, project_id, lower(name), id);
CREATE INDEX flow_view_org_created ON flow_view (organisation_id, created_at, id);
CREATE INDEX flow_view_project ON flow_view (project_id);

CREATE TABLE state_view (
    id              VARCHAR(24) PRIMARY KEY,
    flow_id         VARCHAR(24) NOT NULL,
    project_id      VARCHAR(24) NOT NULL,
    organisation_id VARCHAR(24) NOT NULL,
    reference_id    TEXT        NOT NULL,
    name            TEXT        NOT NULL,
    type            TEXT        NOT NULL,
    is_default      BOOLEAN     NOT NULL,
    intent_ids      TEXT[]      NOT NULL DEFAULT '{}',
    created_at      BIGINT      NOT NULL,
    last_changed    BIGINT      NOT NULL,
    created_by      VARCHAR(24) NOT NULL,
    last_changed_by VARCHAR(24) NOT NULL
);
CREATE INDEX state_view_created ON state_view (organisation_id, flow_id, created_at, id);
CREATE INDEX state_view_name ON state_view (organisation_id, flow_id, lower(name), id);
CREATE INDEX state_view_flow ON state_view (flow_id);
CREATE INDEX state_view_project ON state_view (project_id);
-- A deleted intent is removed from the states that name it.
CREATE INDEX state_view_intents ON state_view USING gin (intent_ids);
