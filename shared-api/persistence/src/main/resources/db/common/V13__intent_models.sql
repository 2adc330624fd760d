-- Trained intent models (issue 40), content-addressed: model_id is a hash of the training set, the analyser, the
-- trainer's configuration, the library versions and the seed, so a row is re-derivable from the event log (a cache
-- both services read: the command service scores with it, the query service serves its cross-validation report).
CREATE TABLE intent_model (
    model_id    VARCHAR(64) PRIMARY KEY,
    model       BYTEA       NOT NULL,
    report      TEXT,        -- JSON of the cross-validation (mode full), null for a quick training
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);
