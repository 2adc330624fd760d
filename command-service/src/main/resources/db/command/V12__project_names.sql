-- Project names on the write side, so validateprojectname can tell a script whether a name is taken in its
-- organisation (ignoring case) from a lookup kept in the same transaction as the project's events.
ALTER TABLE cmd_project_lookup ADD COLUMN name TEXT NOT NULL DEFAULT '';

-- Projects created before this column existed: their name is the one they were created with (no project could be
-- renamed before ProjectUpdatedEvent existed, which ships with this migration).
UPDATE cmd_project_lookup l SET name = e.payload ->> 'name'
FROM (SELECT aggregate_identifier, convert_from(payload, 'UTF8')::jsonb AS payload
      FROM domain_event_entry
      WHERE payload_type = 'ai.convo.contract.project.ProjectCreatedEvent') e
WHERE e.aggregate_identifier = l.project_id;

CREATE INDEX cmd_project_lookup_by_name ON cmd_project_lookup (organisation_id, lower(name));
