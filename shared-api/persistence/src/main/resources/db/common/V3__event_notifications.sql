-- Wakes the query service's processors as soon as events commit (LISTEN domain_events), instead of polling.
-- One notification per statement; PostgreSQL also folds identical notifications of one transaction.
CREATE FUNCTION notify_domain_events() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('domain_events', '');
    RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER domain_events_notify
    AFTER INSERT ON domain_event_entry
    FOR EACH STATEMENT EXECUTE FUNCTION notify_domain_events();
