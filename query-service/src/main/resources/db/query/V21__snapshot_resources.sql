-- What each snapshot holds (indexResourcesInSnapshot): its locales, flows and their states, from the
-- SnapshotResourcesListedEvent of its creation (or of the package it was uploaded from).
CREATE TABLE snapshot_resource_view (
    snapshot_id     VARCHAR(24) NOT NULL,
    organisation_id VARCHAR(24) NOT NULL,
    resource_type   VARCHAR(20) NOT NULL,
    id              VARCHAR(24) NOT NULL,
    reference_id    TEXT        NOT NULL,
    name            TEXT        NOT NULL,
    created_at      BIGINT      NOT NULL,
    created_by      VARCHAR(24) NOT NULL,
    PRIMARY KEY (snapshot_id, resource_type, id)
);
CREATE INDEX snapshot_resource_view_by_name ON snapshot_resource_view (snapshot_id, resource_type, lower(name), id);
