-- Function instances (runs) as the client lists and reads them. An instance outlives its function's deletion: it is
-- history of the organisation; the function's list answers 404 with the function.
CREATE TABLE function_instance_view (
    id              VARCHAR(24) PRIMARY KEY,
    function_id     VARCHAR(24) NOT NULL,
    project_id      VARCHAR(24) NOT NULL,
    organisation_id VARCHAR(24) NOT NULL,
    trigger         TEXT        NOT NULL,
    status          TEXT        NOT NULL,
    error           TEXT,
    parameters      JSONB       NOT NULL,
    logs            JSONB       NOT NULL DEFAULT '[]'::jsonb,
    created_at      BIGINT      NOT NULL,
    finished_at     BIGINT,
    created_by      VARCHAR(24) NOT NULL
);
CREATE INDEX function_instance_view_created ON function_instance_view (organisation_id, function_id, created_at, id);
CREATE INDEX function_instance_view_status ON function_instance_view (organisation_id, function_id, status, id);

CREATE TRIGGER function_instance_view_history AFTER INSERT OR UPDATE OR DELETE ON function_instance_view
    FOR EACH ROW EXECUTE FUNCTION keep_row_history();
