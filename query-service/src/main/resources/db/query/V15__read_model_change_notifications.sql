-- The query service caches rendered intent-list pages (query/web/ResponseCache). Whatever a page shows comes
-- from these tables, so each change tells every query replica which flow it touched (LISTEN
-- read_model_changes) when it commits; locales affect every flow's localeReference, so they say 'locales'.
-- PostgreSQL folds identical notifications of one transaction, so a bulk change of a flow costs one message.
CREATE FUNCTION notify_flow_read_model_change() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('read_model_changes', 'flow:' || OLD.flow_id);
    ELSE
        PERFORM pg_notify('read_model_changes', 'flow:' || NEW.flow_id);
        IF TG_OP = 'UPDATE' AND NEW.flow_id IS DISTINCT FROM OLD.flow_id THEN
            PERFORM pg_notify('read_model_changes', 'flow:' || OLD.flow_id);
        END IF;
    END IF;
    RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER intent_view_changes AFTER INSERT OR UPDATE OR DELETE ON intent_view
    FOR EACH ROW EXECUTE FUNCTION notify_flow_read_model_change();
CREATE TRIGGER intent_sentence_count_changes AFTER INSERT OR UPDATE OR DELETE ON intent_sentence_count
    FOR EACH ROW EXECUTE FUNCTION notify_flow_read_model_change();
CREATE TRIGGER intent_feedback_changes AFTER INSERT OR UPDATE OR DELETE ON intent_feedback
    FOR EACH ROW EXECUTE FUNCTION notify_flow_read_model_change();
CREATE TRIGGER intent_feedback_dirty_changes AFTER INSERT OR UPDATE OR DELETE ON intent_feedback_dirty
    FOR EACH ROW EXECUTE FUNCTION notify_flow_read_model_change();

CREATE FUNCTION notify_intent_flow_change() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('read_model_changes', 'flow:' || CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END);
    RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER intent_flow_view_changes AFTER INSERT OR UPDATE OR DELETE ON intent_flow_view
    FOR EACH ROW EXECUTE FUNCTION notify_intent_flow_change();

CREATE FUNCTION notify_locale_change() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('read_model_changes', 'locales');
    RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER locale_view_changes AFTER INSERT OR UPDATE OR DELETE ON locale_view
    FOR EACH STATEMENT EXECUTE FUNCTION notify_locale_change();
