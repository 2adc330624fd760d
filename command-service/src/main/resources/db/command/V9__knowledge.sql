-- Which knowledge stores exist, in which project and organisation, for commands on their sources. Kept in the
-- same transaction as the store's (and its project's) events; a source command reads its store's row FOR SHARE,
-- so it waits for a concurrent deletion of the store and then finds the row gone.
CREATE TABLE cmd_knowledge_store_lookup (
    store_id        VARCHAR(24) PRIMARY KEY,
    project_id      VARCHAR(24) NOT NULL,
    organisation_id VARCHAR(24) NOT NULL
);
CREATE INDEX cmd_knowledge_store_lookup_by_project ON cmd_knowledge_store_lookup (project_id);
