-- An uploaded knowledge file waiting for (or done with) its ingestion task. The content is removed when the task
-- ends; the row stays, so the simulated ingestion of inline sources (KnowledgeIngestion) leaves uploaded sources to
-- their task, and a re-upload of the same bytes (sha256) into the same store answers the same source.
CREATE TABLE cmd_knowledge_upload (
    task_id     VARCHAR(24) PRIMARY KEY,
    source_id   VARCHAR(24) NOT NULL UNIQUE,
    store_id    VARCHAR(24) NOT NULL,
    sha256      VARCHAR(64) NOT NULL,
    media_type  TEXT        NOT NULL,
    content     BYTEA,
    received_at BIGINT      NOT NULL
);
CREATE INDEX cmd_knowledge_upload_by_hash ON cmd_knowledge_upload (store_id, sha256);
