-- Identity lookups, written by the command service in the same transaction as the identity events
-- (so uniqueness holds and revocation is immediate), read by both services to authenticate.
CREATE TABLE identity_organisation (
    id         VARCHAR(24) PRIMARY KEY,
    name       TEXT        NOT NULL,
    created_by VARCHAR(24),
    created_at BIGINT      NOT NULL
);

CREATE TABLE identity_user (
    id              VARCHAR(24) PRIMARY KEY,
    organisation_id VARCHAR(24) NOT NULL REFERENCES identity_organisation (id),
    email           TEXT        NOT NULL UNIQUE,
    password_hash   TEXT        NOT NULL,
    role            TEXT        NOT NULL,
    created_at      BIGINT      NOT NULL
);

CREATE TABLE identity_api_key (
    id              VARCHAR(24) PRIMARY KEY,
    user_id         VARCHAR(24) NOT NULL REFERENCES identity_user (id),
    organisation_id VARCHAR(24) NOT NULL,
    label           TEXT        NOT NULL,
    key_hash        CHAR(64)    NOT NULL UNIQUE,
    created_at      BIGINT      NOT NULL,
    revoked_at      BIGINT
);
CREATE INDEX identity_api_key_by_user ON identity_api_key (user_id, created_at, id);
