-- Write-side lookups, kept in the same transaction as the events that change them.
CREATE TABLE cmd_locale_lookup (
    locale_id  VARCHAR(24) PRIMARY KEY,
    project_id VARCHAR(24) NOT NULL
);
CREATE INDEX cmd_locale_lookup_by_project ON cmd_locale_lookup (project_id);
