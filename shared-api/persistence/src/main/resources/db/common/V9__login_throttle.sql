-- Password sign-ins per e-mail (LoginAttempts): failures in a row, the lock they earned, and when a success was last
-- recorded. Written by every service (each one signs users in); an e-mail no user has counts the same way.
CREATE TABLE login_throttle (
    email           VARCHAR(320) PRIMARY KEY,
    failures        INTEGER      NOT NULL DEFAULT 0,
    locked_until    BIGINT       NOT NULL DEFAULT 0,
    last_failure_at BIGINT       NOT NULL DEFAULT 0,
    last_success_at BIGINT       NOT NULL DEFAULT 0
);
