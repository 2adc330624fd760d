-- Snapshots, write side.

-- Every snapshot that holds a slot (pending, created, being deleted), so that DELETE and restore find the
-- registry (the project) of a snapshot id. Kept by the snapshot lookup in the same transaction as the events.
CREATE TABLE cmd_snapshot (
    snapshot_id     VARCHAR(24) PRIMARY KEY,
    project_id      VARCHAR(24) NOT NULL,
    organisation_id VARCHAR(24) NOT NULL
);

-- The immutable content of each created snapshot: the canonical JSON document (see SnapshotContent) and its
-- SHA-256. Written once, in the same transaction as the SnapshotCreatedEvent; removed with the snapshot.
CREATE TABLE cmd_snapshot_content (
    snapshot_id VARCHAR(24) PRIMARY KEY,
    hash        CHAR(64)    NOT NULL,
    content     BYTEA       NOT NULL
);

-- The functions of each project (tokens and flows have their lookups already), so that a snapshot finds every
-- aggregate of a project. Filled from the event store for functions created before this migration.
CREATE TABLE cmd_snapshot_function (
    function_id VARCHAR(24) PRIMARY KEY,
    project_id  VARCHAR(24) NOT NULL
);
CREATE INDEX cmd_snapshot_function_by_project ON cmd_snapshot_function (project_id);

INSERT INTO cmd_snapshot_function (function_id, project_id)
SELECT c.aggregate_identifier, convert_from(c.payload, 'UTF8')::jsonb ->> 'projectId'
FROM domain_event_entry c
WHERE c.payload_type = 'ai.convo.contract.function.FunctionCreatedEvent'
  AND NOT EXISTS (SELECT 1 FROM domain_event_entry d
                  WHERE d.aggregate_identifier = c.aggregate_identifier
                    AND d.payload_type = 'ai.convo.contract.function.FunctionDeletedEvent')
  AND EXISTS (SELECT 1 FROM cmd_project_lookup p
              WHERE p.project_id = convert_from(c.payload, 'UTF8')::jsonb ->> 'projectId');
