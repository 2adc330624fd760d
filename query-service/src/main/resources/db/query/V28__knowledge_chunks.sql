-- The chunks of knowledge sources (the official client's chunk methods), listed per source in their order, and
-- versioned by the row-history trigger (V19) like every resource, so a chunk's history and asOf work.
CREATE TABLE knowledge_chunk_view (
    id              VARCHAR(24) PRIMARY KEY,
    source_id       VARCHAR(24) NOT NULL,
    store_id        VARCHAR(24) NOT NULL,
    project_id      VARCHAR(24) NOT NULL,
    organisation_id VARCHAR(24) NOT NULL,
    reference_id    TEXT        NOT NULL,
    chunk_order     INTEGER     NOT NULL,
    text            TEXT        NOT NULL,
    disabled        BOOLEAN     NOT NULL,
    data            TEXT        NOT NULL, -- JSON object
    created_at      BIGINT      NOT NULL,
    last_changed    BIGINT      NOT NULL,
    created_by      VARCHAR(24) NOT NULL,
    last_changed_by VARCHAR(24) NOT NULL
);
CREATE INDEX knowledge_chunk_view_order ON knowledge_chunk_view (source_id, chunk_order, id);
CREATE INDEX knowledge_chunk_view_created ON knowledge_chunk_view (source_id, created_at, id);
CREATE INDEX knowledge_chunk_view_store ON knowledge_chunk_view (store_id);
CREATE INDEX knowledge_chunk_view_project ON knowledge_chunk_view (project_id);

CREATE TRIGGER knowledge_chunk_view_history AFTER INSERT OR UPDATE OR DELETE ON knowledge_chunk_view
    FOR EACH ROW EXECUTE FUNCTION keep_row_history();

-- Why a source's ingestion failed (metaData.failReason), NULL while it did not.
ALTER TABLE knowledge_source_view ADD COLUMN fail_reason TEXT;
