-- A user's password sign-ins (indexLoginAttemptsMe, readLastLoginAttemptMe), from LoginFailed/LoginSucceeded events.
CREATE TABLE login_attempt_view (
    id              VARCHAR(36) PRIMARY KEY,
    user_id         VARCHAR(24) NOT NULL,
    organisation_id VARCHAR(24) NOT NULL,
    status          VARCHAR(8)  NOT NULL,
    occurred_at     BIGINT      NOT NULL,
    location        TEXT
);
CREATE INDEX login_attempt_view_by_user ON login_attempt_view (user_id, occurred_at, id);
