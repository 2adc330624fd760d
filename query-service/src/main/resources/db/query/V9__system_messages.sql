-- System messages. GET /v2.0/system/message answers the newest one (createdAt, then id) whose until is still in
-- the future: read newest first through this index, skipping expired rows.
CREATE TABLE system_message_view (
    id              VARCHAR(24) PRIMARY KEY,
    message         TEXT        NOT NULL,
    until           BIGINT      NOT NULL,
    show_on_login   BOOLEAN     NOT NULL,
    created_at      BIGINT      NOT NULL,
    last_changed    BIGINT      NOT NULL,
    created_by      VARCHAR(24) NOT NULL,
    last_changed_by VARCHAR(24) NOT NULL
);
CREATE INDEX system_message_view_newest ON system_message_view (created_at DESC, id DESC);
