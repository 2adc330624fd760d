-- Knowledge stores and their sources. Lists are per organisation (optionally per project) for stores and per
-- store for sources, in the default order (createdAt, _id) or by name, so those have their indexes.
CREATE TABLE knowledge_store_view (
    id              VARCHAR(24) PRIMARY KEY,
    project_id      VARCHAR(24) NOT NULL,
    organisation_id VARCHAR(24) NOT NULL,
    reference_id    TEXT        NOT NULL,
    name            TEXT        NOT NULL,
    description     TEXT        NOT NULL,
    language        TEXT        NOT NULL,
    created_at      BIGINT      NOT NULL,
    last_changed    BIGINT      NOT NULL,
    created_by      VARCHAR(24) NOT NULL,
    last_changed_by VARCHAR(24) NOT NULL
);
CREATE INDEX knowledge_store_view_created ON knowledge_store_view (organisation_id, created_at, id);
CREATE INDEX knowledge_store_view_name ON knowledge_store_view (organisation_id, lower(name), id);
CREATE INDEX knowledge_store_view_project_created ON knowledge_store_view (organisation_id, project_id, created_at, id);
CREATE INDEX knowledge_store_view_project_name ON knowledge_store_view (organisation_id, project_id, lower(name), id);
CREATE INDEX knowledge_store_view_project ON knowledge_store_view (project_id);

CREATE TABLE knowledge_source_view (
    id              VARCHAR(24) PRIMARY KEY,
    store_id        VARCHAR(24) NOT NULL,
    project_id      VARCHAR(24) NOT NULL,
    organisation_id VARCHAR(24) NOT NULL,
    reference_id    TEXT        NOT NULL,
    name            TEXT        NOT NULL,
    description     TEXT        NOT NULL,
    source_type     TEXT        NOT NULL,
    status          TEXT        NOT NULL,
    chunk_count     BIGINT      NOT NULL,
    tags            TEXT        NOT NULL, -- JSON array of strings
    data            TEXT        NOT NULL, -- JSON object
    created_at      BIGINT      NOT NULL,
    last_changed    BIGINT      NOT NULL,
    created_by      VARCHAR(24) NOT NULL,
    last_changed_by VARCHAR(24) NOT NULL
);
CREATE INDEX knowledge_source_view_created ON knowledge_source_view (store_id, created_at, id);
CREATE INDEX knowledge_source_view_name ON knowledge_source_view (store_id, lower(name), id);
CREATE INDEX knowledge_source_view_project ON knowledge_source_view (project_id);

-- The live projects as the knowledge projection has seen them: a store event that commits after its project's
-- deletion finds no row here and leaves no orphan (sources need their store's row in the same way).
CREATE TABLE knowledge_project (
    project_id VARCHAR(24) PRIMARY KEY
);
