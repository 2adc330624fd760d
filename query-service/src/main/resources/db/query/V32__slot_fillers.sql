-- The slot fillers of flows (the official client's slot filler methods), listed per flow with the list engine and
-- versioned by the row-history trigger (V19) like every resource, so a slot filler's history and asOf work.
CREATE TABLE slot_filler_view (
    id                       VARCHAR(24) PRIMARY KEY,
    flow_id                  VARCHAR(24) NOT NULL,
    project_id               VARCHAR(24) NOT NULL,
    organisation_id          VARCHAR(24) NOT NULL,
    reference_id             TEXT        NOT NULL,
    name                     TEXT        NOT NULL,
    type                     TEXT        NOT NULL,
    regex                    TEXT,
    slot                     TEXT,
    use_positive_only        BOOLEAN     NOT NULL,
    remove_negated           BOOLEAN     NOT NULL,
    store_result_in_context  BOOLEAN     NOT NULL,
    context_key              TEXT        NOT NULL,
    store_in_contact_profile BOOLEAN     NOT NULL,
    profile_key              TEXT        NOT NULL,
    store_detailed_results   BOOLEAN     NOT NULL,
    skip_if_result_in_context BOOLEAN    NOT NULL,
    additional_validation    TEXT        NOT NULL,
    result_location          TEXT        NOT NULL,
    created_at               BIGINT      NOT NULL,
    last_changed             BIGINT      NOT NULL,
    created_by               VARCHAR(24) NOT NULL,
    last_changed_by          VARCHAR(24) NOT NULL
);
CREATE INDEX slot_filler_view_created ON slot_filler_view (organisation_id, flow_id, created_at, id);
CREATE INDEX slot_filler_view_name ON slot_filler_view (organisation_id, flow_id, lower(name), id);
CREATE INDEX slot_filler_view_flow ON slot_filler_view (flow_id);
CREATE INDEX slot_filler_view_project ON slot_filler_view (project_id);

CREATE TRIGGER slot_filler_view_history AFTER INSERT OR UPDATE OR DELETE ON slot_filler_view
    FOR EACH ROW EXECUTE FUNCTION keep_row_history();

-- The live flows as the slot filler projection has seen them (created, not deleted): a slot filler event that
-- commits after its flow's deletion finds no row here and leaves no orphan.
CREATE TABLE slot_filler_flow (
    flow_id    VARCHAR(24) PRIMARY KEY,
    project_id VARCHAR(24) NOT NULL
);
CREATE INDEX slot_filler_flow_project ON slot_filler_flow (project_id);
