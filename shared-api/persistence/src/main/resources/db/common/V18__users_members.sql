-- Users of an organisation beyond its first administrator, and project members with their roles. Written by the
-- command service in the same transaction as the events (identity lookups), read by both services per request.
-- roles: the client's organisation-wide roles; role stays the coarse SYSTEM_ADMIN / ORG_ADMIN / MEMBER.
ALTER TABLE identity_user
    ADD COLUMN name       TEXT    NOT NULL DEFAULT '',
    ADD COLUMN roles      TEXT[]  NOT NULL DEFAULT '{}',
    ADD COLUMN disabled   BOOLEAN NOT NULL DEFAULT false,
    ADD COLUMN deleted_at BIGINT;
CREATE INDEX identity_user_by_organisation ON identity_user (organisation_id, email) WHERE deleted_at IS NULL;

-- A password set after registration (createUser, changePassword). Not derived from events: a hash is never in the
-- event log, which is kept forever. It wins over identity_user.password_hash (the bootstrap's, or '' for none).
CREATE TABLE identity_password (
    user_id       VARCHAR(24) PRIMARY KEY REFERENCES identity_user (id) DEFERRABLE INITIALLY DEFERRED,
    password_hash TEXT        NOT NULL,
    changed_at    BIGINT      NOT NULL
);

-- roles: the client's project-wide roles; allowed_locales: null means every locale of the project.
CREATE TABLE identity_member (
    project_id      VARCHAR(24) NOT NULL,
    user_id         VARCHAR(24) NOT NULL REFERENCES identity_user (id),
    organisation_id VARCHAR(24) NOT NULL,
    roles           TEXT[]      NOT NULL DEFAULT '{}',
    allowed_locales TEXT[],
    added_by        VARCHAR(24) NOT NULL,
    added_at        BIGINT      NOT NULL,
    PRIMARY KEY (project_id, user_id)
);
CREATE INDEX identity_member_by_user ON identity_member (user_id, project_id);

-- The members of a project as the client lists them (indexProjectMembers, readProjectMember).
CREATE VIEW identity_project_member AS
SELECT m.project_id, m.user_id AS id, m.organisation_id, u.email, u.name, m.roles, m.allowed_locales, u.disabled,
       m.added_at AS created_at, m.added_by AS created_by
FROM identity_member m JOIN identity_user u ON u.id = m.user_id
WHERE u.deleted_at IS NULL;
