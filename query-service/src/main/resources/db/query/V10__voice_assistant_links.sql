-- The live voice-assistant link of each user's account: its meta only. The tokens are never here, not even
-- sealed; a row goes when its link ends.
CREATE TABLE voice_assistant_link_view (
    account_id      VARCHAR(24) PRIMARY KEY,
    link_id         VARCHAR(24) NOT NULL UNIQUE,
    voice_assistant TEXT        NOT NULL,
    user_id         VARCHAR(24) NOT NULL,
    organisation_id VARCHAR(24) NOT NULL,
    created_at      BIGINT      NOT NULL,
    created_by      VARCHAR(24) NOT NULL
);
CREATE INDEX voice_assistant_link_view_user ON voice_assistant_link_view (user_id, voice_assistant);
