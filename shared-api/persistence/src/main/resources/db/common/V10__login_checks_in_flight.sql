-- Password checks claimed and not yet settled per e-mail (LoginAttempts.claim): a check is claimed before the password
-- hash is compared and counts as a failure to come, so sign-ins that arrive at once get no more checks than the lock
-- lets through one after another. checking_since: the latest claim; older than a minute, the count was lost with its
-- replica and no longer counts.
ALTER TABLE login_throttle
    ADD COLUMN checking       INTEGER NOT NULL DEFAULT 0,
    ADD COLUMN checking_since BIGINT  NOT NULL DEFAULT 0;
