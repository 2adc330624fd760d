-- The intent list's total without counting a flow's rows per request: a row trigger keeps per-flow counts of
-- all intents and of roots (parent ''), exactly, whatever path the projection takes (an insert that did not
-- happen does not fire it). Rows are ordered per project, so one flow's counts are never updated concurrently.
ALTER TABLE intent_flow_view
    ADD COLUMN intent_count BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN root_count   BIGINT NOT NULL DEFAULT 0;

UPDATE intent_flow_view f
SET intent_count = (SELECT count(*) FROM intent_view i WHERE i.flow_id = f.id),
    root_count   = (SELECT count(*) FROM intent_view i WHERE i.flow_id = f.id AND i.parent_intent_id = '');

CREATE FUNCTION intent_view_counts() RETURNS trigger AS $$
BEGIN
    IF TG_OP = 'INSERT' OR TG_OP = 'UPDATE' THEN
        UPDATE intent_flow_view
        SET intent_count = intent_count + CASE WHEN TG_OP = 'INSERT' THEN 1 ELSE 0 END,
            root_count   = root_count + CASE WHEN NEW.parent_intent_id = '' THEN 1 ELSE 0 END
        WHERE id = NEW.flow_id;
    END IF;
    IF TG_OP = 'DELETE' OR TG_OP = 'UPDATE' THEN
        UPDATE intent_flow_view
        SET intent_count = intent_count - CASE WHEN TG_OP = 'DELETE' THEN 1 ELSE 0 END,
            root_count   = root_count - CASE WHEN OLD.parent_intent_id = '' THEN 1 ELSE 0 END
        WHERE id = OLD.flow_id;
    END IF;
    RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER intent_view_counts
    AFTER INSERT OR DELETE OR UPDATE OF parent_intent_id ON intent_view
    FOR EACH ROW EXECUTE FUNCTION intent_view_counts();

-- filter is a case-insensitive substring of the name: a trigram index serves it instead of reading the flow.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX intent_view_name_trgm ON intent_view USING gin (name gin_trgm_ops);
