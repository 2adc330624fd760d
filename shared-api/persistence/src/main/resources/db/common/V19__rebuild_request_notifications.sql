-- A rebuild request wakes the query replicas' rebuild runners at once (on the channel they already listen on), instead
-- of waiting for their next poll, which stays as the fallback while a replica's listening connection is down.
CREATE FUNCTION notify_rebuild_requested() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('read_model_changes', 'rebuild:' || NEW.id);
    RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER projection_rebuild_requested AFTER INSERT ON projection_rebuild
    FOR EACH ROW EXECUTE FUNCTION notify_rebuild_requested();
