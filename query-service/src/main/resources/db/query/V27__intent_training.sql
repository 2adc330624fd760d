-- The last training of each flow in each locale (issue 40), projected from FlowIntentsTrainedEvent by the intents
-- projection. The cross-validation report is copied from the common intent_model table (written before the event) when
-- the model has one: flow_report is its flow part, intent_reports its intents (id -> report), so a list page reads a few
-- keys instead of parsing the whole report (which also holds every sentence). training_set_hash is compared with the
-- hash of the current intents and sentences (IntentTrainingReads), which makes isTrainingOutOfDate exact.
CREATE TABLE intent_training (
    flow_id           VARCHAR(24) NOT NULL,
    locale_id         VARCHAR(24) NOT NULL,
    project_id        VARCHAR(24) NOT NULL,
    organisation_id   VARCHAR(24) NOT NULL,
    model_id          VARCHAR(64) NOT NULL,
    training_set_hash VARCHAR(64) NOT NULL,
    mode              TEXT        NOT NULL,
    trained_at        BIGINT      NOT NULL,
    flow_report       JSONB,
    intent_reports    JSONB,
    PRIMARY KEY (flow_id, locale_id)
);
CREATE INDEX intent_training_project ON intent_training (project_id);
