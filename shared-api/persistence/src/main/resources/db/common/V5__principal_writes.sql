-- Read-your-writes per principal (README "Reading your own writes"). A command handled for a principal sets the
-- transaction-local setting app.principal (comma-separated keys: the user id, plus e.g. public:system-message for
-- writes everyone reads through a public route); the statement trigger that already wakes the processors then
-- records the newest global index this statement wrote under each key, in the same transaction as the events.
-- So a write is recorded exactly when it commits, before any 2xx can be sent. Rows are only ever inserted (no row
-- lock that two commands of one principal could deadlock on); superseded rows are pruned by the command service.
CREATE TABLE principal_write (
    principal_key VARCHAR(100) NOT NULL,
    position      BIGINT       NOT NULL,
    PRIMARY KEY (principal_key, position)
);

CREATE OR REPLACE FUNCTION notify_domain_events() RETURNS trigger AS $$
DECLARE
    principals TEXT := current_setting('app.principal', true);
BEGIN
    PERFORM pg_notify('domain_events', '');
    IF principals IS NOT NULL AND principals <> '' THEN
        INSERT INTO principal_write (principal_key, position)
        SELECT key, (SELECT max(global_index) FROM new_events)
        FROM unnest(string_to_array(principals, ',')) AS key
        ON CONFLICT DO NOTHING;
    END IF;
    RETURN NULL;
END
$$ LANGUAGE plpgsql;

DROP TRIGGER domain_events_notify ON domain_event_entry;
CREATE TRIGGER domain_events_notify
    AFTER INSERT ON domain_event_entry
    REFERENCING NEW TABLE AS new_events
    FOR EACH STATEMENT EXECUTE FUNCTION notify_domain_events();
