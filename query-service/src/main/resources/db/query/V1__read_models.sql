-- Read models of the query service. Every list is (tenant, parent, sort key, id) indexed, so a page is an
-- index range scan, never a sort of the whole table.
CREATE TABLE project_view (
    id                       VARCHAR(24) PRIMARY KEY,
    organisation_id          VARCHAR(24) NOT NULL,
    name                     TEXT        NOT NULL,
    color                    TEXT        NOT NULL,
    primary_locale_reference VARCHAR(24) NOT NULL,
    created_at               BIGINT      NOT NULL,
    last_changed             BIGINT      NOT NULL,
    created_by               VARCHAR(24) NOT NULL,
    last_changed_by          VARCHAR(24) NOT NULL
);
CREATE INDEX project_view_created ON project_view (organisation_id, created_at, id);
CREATE INDEX project_view_name ON project_view (organisation_id, lower(name), id);

CREATE TABLE locale_view (
    id                        VARCHAR(24) PRIMARY KEY,
    project_id                VARCHAR(24) NOT NULL,
    organisation_id           VARCHAR(24) NOT NULL,
    reference_id              TEXT        NOT NULL,
    name                      TEXT        NOT NULL,
    nlu_language              TEXT        NOT NULL,
    is_primary                BOOLEAN     NOT NULL,
    fallback_locale_reference VARCHAR(24),
    created_at                BIGINT      NOT NULL,
    last_changed              BIGINT      NOT NULL,
    created_by                VARCHAR(24) NOT NULL,
    last_changed_by           VARCHAR(24) NOT NULL
);
CREATE INDEX locale_view_created ON locale_view (organisation_id, project_id, created_at, id);
CREATE INDEX locale_view_name ON locale_view (organisation_id, project_id, lower(name), id);

-- Cursors are content-addressed handles to a boundary (sort values + id) of a list walk.
CREATE TABLE list_cursor (
    id         VARCHAR(24) PRIMARY KEY,
    list_key   TEXT        NOT NULL,
    payload    TEXT        NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE INDEX list_cursor_age ON list_cursor (created_at);
