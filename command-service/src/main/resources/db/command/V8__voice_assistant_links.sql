-- The per-link keys that voice-assistant tokens are sealed with in the event log (AES-256-GCM). Deliberately
-- outside the log: deleting a row (unlink, or a replacing link) makes that link's tokens unreadable for good,
-- in the log and in every backup of it. One live link, hence one key, per account.
CREATE TABLE voice_assistant_link_key (
    link_id    VARCHAR(24) PRIMARY KEY,
    account_id VARCHAR(24) NOT NULL UNIQUE,
    key_bytes  BYTEA       NOT NULL,
    created_at BIGINT      NOT NULL
);
