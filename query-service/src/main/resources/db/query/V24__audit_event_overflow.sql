-- One request of many events (an import of 10,000 intents) made one audit event whose payload.alsoChanged grew by one
-- entry per event: every event rewrote the whole, ever larger row (quadratic; 60,000 events crawled at 20-40/s).
-- alsoChanged now lists at most the first 100 other resources (EventLogProjection.ALSO_CHANGED_MAX); each event
-- beyond that is one row here, only ever inserted, and reads show their number as payload.alsoChangedOmitted.
-- Existing rows stay as they are (a longer list than 100 only gains no further entries).
CREATE TABLE audit_event_overflow (
    organisation_id VARCHAR(24)  NOT NULL,
    correlation_id  VARCHAR(255) NOT NULL,
    position        BIGINT       NOT NULL,
    PRIMARY KEY (organisation_id, correlation_id, position)
);

CREATE OR REPLACE VIEW audit_event_view AS
SELECT a.id, a.organisation_id, a.type, a.action_type, a.user_id, u.email AS user_email, a.project_id,
       a.resource_type, a.resource_id, a.chain,
       CASE WHEN o.omitted > 0 THEN a.payload || jsonb_build_object('alsoChangedOmitted', o.omitted) ELSE a.payload END
           AS payload,
       a.occurred_at
FROM audit_event a LEFT JOIN identity_user u ON u.id = a.user_id
LEFT JOIN LATERAL (SELECT count(*) AS omitted FROM audit_event_overflow x
                   WHERE x.organisation_id = a.organisation_id AND x.correlation_id = a.correlation_id) o ON true
UNION ALL
SELECT r.id, r.organisation_id, 'unauthorized', NULL, r.user_id, r.email, NULL, 'request', NULL, '[]'::jsonb,
       jsonb_build_object('method', r.method, 'path', r.path, 'status', r.status, 'scheme', r.scheme,
                          'remoteAddress', r.remote_address, 'repeated', r.repeated),
       r.occurred_at
FROM refused_request r;
