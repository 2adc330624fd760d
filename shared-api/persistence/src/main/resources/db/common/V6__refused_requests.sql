-- Requests either service refused (401, 403): the audit trail's 'unauthorized' events. Throttled where they are
-- written (RefusedRequests): one row per source and kind of refusal per interval, counting the ones it stood for.
-- Never a credential: an API key, password or token appears neither in clear nor hashed.
CREATE TABLE refused_request (
    id              VARCHAR(24)  PRIMARY KEY,
    organisation_id VARCHAR(24),
    user_id         VARCHAR(24),
    email           TEXT,
    method          VARCHAR(10)  NOT NULL,
    path            TEXT         NOT NULL,
    status          INTEGER      NOT NULL,
    scheme          VARCHAR(30),
    remote_address  VARCHAR(64),
    repeated        INTEGER      NOT NULL,
    occurred_at     BIGINT       NOT NULL
);
CREATE INDEX refused_request_by_time ON refused_request (organisation_id, occurred_at, id);
