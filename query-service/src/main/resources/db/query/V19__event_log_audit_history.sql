-- The organisation's view of the event log (eventlog/EventLogProjection). Positions are per organisation, given in
-- the order the projection saw the events (one segment thread per organisation), so an organisation never learns how
-- many events another one has, and a reader that follows positions never misses a late commit: a row is only
-- inserted after every row of a lower position of its organisation. Payloads stay in domain_event_entry.
CREATE TABLE event_log (
    organisation_id VARCHAR(24)  NOT NULL,
    position        BIGINT       NOT NULL,
    global_index    BIGINT       NOT NULL UNIQUE,
    id              VARCHAR(255) NOT NULL,
    project_id      VARCHAR(24),
    resource_type   VARCHAR(40)  NOT NULL,
    resource_id     VARCHAR(255) NOT NULL,
    sequence_number BIGINT       NOT NULL,
    event_type      VARCHAR(100) NOT NULL,
    occurred_at     BIGINT       NOT NULL,
    actor_id        VARCHAR(24),
    PRIMARY KEY (organisation_id, position)
);
CREATE INDEX event_log_by_resource ON event_log (organisation_id, resource_type, resource_id, position);
CREATE INDEX event_log_by_time ON event_log (organisation_id, occurred_at, position);

-- A live tail (text/event-stream) wakes when its organisation's log grows (ConsistencyChannel listens).
CREATE FUNCTION notify_event_log_change() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('read_model_changes', 'eventlog:' || NEW.organisation_id);
    RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER event_log_changes AFTER INSERT ON event_log
    FOR EACH ROW EXECUTE FUNCTION notify_event_log_change();

-- One audit event per accepted command (the events of one command share its correlation id), in the shape of the
-- official client's IAuditEvent_2_0. Refused requests are written by both services into refused_request.
CREATE TABLE audit_event (
    id              VARCHAR(24)  NOT NULL,
    organisation_id VARCHAR(24)  NOT NULL,
    correlation_id  VARCHAR(255) NOT NULL,
    position        BIGINT       NOT NULL,
    type            VARCHAR(20)  NOT NULL,
    action_type     VARCHAR(60),
    user_id         VARCHAR(24),
    project_id      VARCHAR(24),
    resource_type   VARCHAR(40)  NOT NULL,
    resource_id     VARCHAR(255) NOT NULL,
    chain           JSONB        NOT NULL,
    payload         JSONB        NOT NULL,
    occurred_at     BIGINT       NOT NULL,
    PRIMARY KEY (organisation_id, id),
    UNIQUE (organisation_id, correlation_id)
);
CREATE INDEX audit_event_by_time ON audit_event (organisation_id, occurred_at, id);

-- Every version of every resource row, stamped with the global index of the event that wrote it (the processors set
-- app.position before each event): what asOf reads. A row_data of NULL: the row was deleted by that event.
CREATE TABLE row_history (
    table_name   VARCHAR(40)  NOT NULL,
    row_id       VARCHAR(255) NOT NULL,
    global_index BIGINT       NOT NULL,
    row_data     JSONB,
    PRIMARY KEY (table_name, row_id, global_index)
);

CREATE FUNCTION keep_row_history() RETURNS trigger AS $$
DECLARE
    at BIGINT := nullif(current_setting('app.position', true), '')::BIGINT;
BEGIN
    IF at IS NULL THEN
        RETURN NULL;
    END IF;
    IF TG_OP = 'DELETE' THEN
        INSERT INTO row_history (table_name, row_id, global_index, row_data) VALUES (TG_TABLE_NAME, OLD.id, at, NULL)
        ON CONFLICT (table_name, row_id, global_index) DO UPDATE SET row_data = NULL;
    ELSE
        INSERT INTO row_history (table_name, row_id, global_index, row_data) VALUES (TG_TABLE_NAME, NEW.id, at, to_jsonb(NEW))
        ON CONFLICT (table_name, row_id, global_index) DO UPDATE SET row_data = EXCLUDED.row_data;
    END IF;
    RETURN NULL;
END
$$ LANGUAGE plpgsql;

DO $$
DECLARE
    t TEXT;
BEGIN
    FOREACH t IN ARRAY ARRAY['project_view', 'locale_view', 'token_view', 'function_view', 'flow_view', 'state_view',
            'intent_view', 'sentence_view', 'knowledge_store_view', 'knowledge_source_view', 'snapshot_view', 'task_view']
    LOOP
        EXECUTE format('CREATE TRIGGER %I AFTER INSERT OR UPDATE OR DELETE ON %I FOR EACH ROW '
                       'EXECUTE FUNCTION keep_row_history()', t || '_history', t);
    END LOOP;
END
$$;

-- What GET /v2.0/auditevents lists: the audit events of commands and the refused requests, with the user's e-mail.
CREATE VIEW audit_event_view AS
SELECT a.id, a.organisation_id, a.type, a.action_type, a.user_id, u.email AS user_email, a.project_id,
       a.resource_type, a.resource_id, a.chain, a.payload, a.occurred_at
FROM audit_event a LEFT JOIN identity_user u ON u.id = a.user_id
UNION ALL
SELECT r.id, r.organisation_id, 'unauthorized', NULL, r.user_id, r.email, NULL, 'request', NULL, '[]'::jsonb,
       jsonb_build_object('method', r.method, 'path', r.path, 'status', r.status, 'scheme', r.scheme,
                          'remoteAddress', r.remote_address, 'repeated', r.repeated),
       r.occurred_at
FROM refused_request r;

-- What GET .../{resource}/{id}/history lists: the events of a resource and those that changed its row (row_history:
-- a primary-locale switch changes the project and both locales), who made them, their payloads without secrets.
CREATE VIEW event_history_view AS
SELECT l.organisation_id, l.position, l.global_index, l.id, l.resource_type, l.resource_id, l.project_id, l.event_type,
       l.occurred_at, l.actor_id, u.email AS actor_email,
       convert_from(e.payload, 'UTF8')::jsonb - 'keyHash' - 'passwordHash' - 'accessToken' - 'refreshToken' - 'cipher'
           AS payload
FROM event_log l
JOIN domain_event_entry e ON e.global_index = l.global_index
LEFT JOIN identity_user u ON u.id = l.actor_id;
