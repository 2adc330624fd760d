-- Write-side lookups for commands on things inside projects and flows.
CREATE TABLE cmd_project_lookup (
    project_id      VARCHAR(24) PRIMARY KEY,
    organisation_id VARCHAR(24) NOT NULL
);

CREATE TABLE cmd_flow_lookup (
    flow_id         VARCHAR(24) PRIMARY KEY,
    project_id      VARCHAR(24) NOT NULL,
    organisation_id VARCHAR(24) NOT NULL
);
CREATE INDEX cmd_flow_lookup_by_project ON cmd_flow_lookup (project_id);

-- Intents of each flow: names unique per flow (ignoring case), the parent tree (no cycles), and which
-- intents a state may name. Kept by the intent feature's lookup.
CREATE TABLE cmd_intent_lookup (
    intent_id        VARCHAR(24) PRIMARY KEY,
    flow_id          VARCHAR(24) NOT NULL,
    organisation_id  VARCHAR(24) NOT NULL,
    name             TEXT        NOT NULL,
    parent_intent_id VARCHAR(24)
);
CREATE UNIQUE INDEX cmd_intent_lookup_name ON cmd_intent_lookup (flow_id, lower(name));
CREATE INDEX cmd_intent_lookup_parent ON cmd_intent_lookup (parent_intent_id);
