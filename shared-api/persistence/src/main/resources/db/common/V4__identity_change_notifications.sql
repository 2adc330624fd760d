-- Services cache API-key lookups; a revoked or deleted key (or a changed user) must be refused at once, so
-- every change to the identity tables tells the listening services (LISTEN identity_changes) when it commits.
CREATE FUNCTION notify_identity_changes() RETURNS trigger AS $$
BEGIN
    IF TG_TABLE_NAME = 'identity_api_key' THEN
        PERFORM pg_notify('identity_changes', OLD.key_hash);
    ELSE
        PERFORM pg_notify('identity_changes', '');
    END IF;
    RETURN NULL;
END
$$ LANGUAGE plpgsql;

CREATE TRIGGER identity_api_key_changes
    AFTER UPDATE OR DELETE ON identity_api_key
    FOR EACH ROW EXECUTE FUNCTION notify_identity_changes();

CREATE TRIGGER identity_user_changes
    AFTER UPDATE OR DELETE ON identity_user
    FOR EACH ROW EXECUTE FUNCTION notify_identity_changes();
