-- Intents in and out of a flow (the official client's exportIntents / importIntents).

-- The file an exportIntents task made, downloadable for a day by the flow's organisation (then removed).
CREATE TABLE cmd_intent_export (
    task_id         VARCHAR(24) PRIMARY KEY,
    flow_id         VARCHAR(24) NOT NULL,
    organisation_id VARCHAR(24) NOT NULL,
    format          VARCHAR(8)  NOT NULL,
    content         BYTEA       NOT NULL,
    made_at         BIGINT      NOT NULL
);
CREATE INDEX cmd_intent_export_made_at ON cmd_intent_export (made_at);

-- An uploaded intent file, checked at upload, waiting for its importIntents task (removed when the task ends).
CREATE TABLE cmd_intent_import (
    task_id VARCHAR(24) PRIMARY KEY,
    content BYTEA       NOT NULL
);
