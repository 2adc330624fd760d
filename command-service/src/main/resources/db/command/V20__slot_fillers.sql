-- The live slot fillers of each flow, for a project's capture (snapshots) and the template seeds. Kept by the
-- slot filler feature's lookup in the command's transaction; a flow's or project's deletion takes its rows.
CREATE TABLE cmd_slot_filler_lookup (
    slot_filler_id  VARCHAR(24) PRIMARY KEY,
    flow_id         VARCHAR(24) NOT NULL,
    project_id      VARCHAR(24) NOT NULL,
    organisation_id VARCHAR(24) NOT NULL
);
CREATE INDEX cmd_slot_filler_lookup_flow ON cmd_slot_filler_lookup (flow_id);
CREATE INDEX cmd_slot_filler_lookup_project ON cmd_slot_filler_lookup (project_id);
