-- Labels of each project's custom tokens: unique per project ignoring case. Kept by the token feature's
-- lookup in the same transaction as the token events; the unique index settles concurrent creates and renames.
CREATE TABLE cmd_token_lookup (
    token_id   VARCHAR(24) PRIMARY KEY,
    project_id VARCHAR(24) NOT NULL,
    label      TEXT        NOT NULL
);
CREATE UNIQUE INDEX cmd_token_lookup_label ON cmd_token_lookup (project_id, lower(label));
