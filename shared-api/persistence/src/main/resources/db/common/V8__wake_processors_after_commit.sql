-- Appending events no longer raises NOTIFY inside the appending transaction. A transaction with a pending NOTIFY
-- holds PostgreSQL's one notification lock from just before its commit until after its WAL flush, so every
-- appending transaction (and every projection transaction whose cache-invalidation trigger notifies) waited for the
-- flush of the one before it: at 32 connections most active backends were waiting on that lock (Lock:object) and
-- commands reached 400 per second. The command service now sends the wake-up itself, after the commit, from a
-- connection of its own (ai.convo.persistence.EventWakeups). The trigger keeps its other duty: recording the
-- principal's write position in the same transaction as the events.
CREATE FUNCTION record_principal_writes() RETURNS trigger AS $$
DECLARE
    principals TEXT := current_setting('app.principal', true);
BEGIN
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
DROP FUNCTION notify_domain_events();
CREATE TRIGGER domain_events_principal_writes
    AFTER INSERT ON domain_event_entry
    REFERENCING NEW TABLE AS new_events
    FOR EACH STATEMENT EXECUTE FUNCTION record_principal_writes();
