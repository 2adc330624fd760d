-- Intents and their example sentences. Sized for a flow of 10,000 intents and 100,000 sentences: every list
-- page is an index range scan in the order asked for (an index (parent, sort expression, id) per sortable
-- field), never a sort of the flow's rows, and sentence counts are kept per (intent, locale) by the projection
-- instead of being counted per request. Sort expressions are NOT NULL, as the keyset engine requires.

-- Flows as this read model knows them (from the flow events): the intent lists answer 404 for an unknown or
-- foreign flow without depending on another projection.
CREATE TABLE intent_flow_view (
    id              VARCHAR(24) PRIMARY KEY,
    project_id      VARCHAR(24) NOT NULL,
    organisation_id VARCHAR(24) NOT NULL
);
CREATE INDEX intent_flow_view_project ON intent_flow_view (project_id);

CREATE TABLE intent_view (
    id                      VARCHAR(24) PRIMARY KEY,
    flow_id                 VARCHAR(24) NOT NULL,
    project_id              VARCHAR(24) NOT NULL,
    organisation_id         VARCHAR(24) NOT NULL,
    reference_id            TEXT        NOT NULL,
    name                    TEXT        NOT NULL,
    description             TEXT        NOT NULL,
    tags                    TEXT        NOT NULL, -- JSON array of strings
    tags_key                TEXT        NOT NULL, -- the sort key of tags: lower-case tags joined by ','
    is_reject_intent        BOOLEAN     NOT NULL,
    is_disabled             BOOLEAN     NOT NULL,
    parent_intent_id        VARCHAR(24) NOT NULL, -- '' for a root intent, so it sorts and indexes as is
    condition               TEXT        NOT NULL,
    confirmation_sentences  TEXT        NOT NULL, -- JSON array of strings
    disambiguation_sentence TEXT        NOT NULL,
    rules                   TEXT        NOT NULL, -- JSON array of strings
    data                    TEXT        NOT NULL, -- JSON object
    child_features          TEXT        NOT NULL, -- JSON: true, false or an array of intent ids
    bias                    TEXT,                 -- biasTowardsParentOrChildIntents: parents, children or null
    created_at              BIGINT      NOT NULL,
    last_changed            BIGINT      NOT NULL,
    created_by              VARCHAR(24) NOT NULL,
    last_changed_by         VARCHAR(24) NOT NULL
);
-- The whole flow (no parent, no includeChildren), one index per sortable field: (flow_id, sort expression, id).
-- The sort expressions are exactly those of IntentQueryController; description sorts by its first 200
-- characters so its index entries stay small. (flow_id, parent_intent_id, id) below serves parentIntentId.
CREATE INDEX intent_view_created     ON intent_view (flow_id, created_at, id);
CREATE INDEX intent_view_changed     ON intent_view (flow_id, last_changed, id);
CREATE INDEX intent_view_name        ON intent_view (flow_id, lower(name), id);
CREATE INDEX intent_view_description ON intent_view (flow_id, lower(left(description, 200)), id);
CREATE INDEX intent_view_tags        ON intent_view (flow_id, tags_key, id);
CREATE INDEX intent_view_reject      ON intent_view (flow_id, is_reject_intent, id);
CREATE INDEX intent_view_disabled    ON intent_view (flow_id, is_disabled, id);
CREATE INDEX intent_view_reference   ON intent_view (flow_id, reference_id, id);
CREATE INDEX intent_view_id          ON intent_view (flow_id, id);
-- One parent's children (parent=..., or the roots '' with includeChildren), again one index per sortable
-- field: (flow_id, parent_intent_id, sort expression, id). The first also serves the sorts by _id and by
-- parentIntentId, and the descendants walk of includeChildren (flow_id, parent_intent_id = ...).
CREATE INDEX intent_view_parent_id          ON intent_view (flow_id, parent_intent_id, id);
CREATE INDEX intent_view_parent_created     ON intent_view (flow_id, parent_intent_id, created_at, id);
CREATE INDEX intent_view_parent_changed     ON intent_view (flow_id, parent_intent_id, last_changed, id);
CREATE INDEX intent_view_parent_name        ON intent_view (flow_id, parent_intent_id, lower(name), id);
CREATE INDEX intent_view_parent_description ON intent_view (flow_id, parent_intent_id, lower(left(description, 200)), id);
CREATE INDEX intent_view_parent_tags        ON intent_view (flow_id, parent_intent_id, tags_key, id);
CREATE INDEX intent_view_parent_reject      ON intent_view (flow_id, parent_intent_id, is_reject_intent, id);
CREATE INDEX intent_view_parent_disabled    ON intent_view (flow_id, parent_intent_id, is_disabled, id);
CREATE INDEX intent_view_parent_reference   ON intent_view (flow_id, parent_intent_id, reference_id, id);
-- A project's deletion.
CREATE INDEX intent_view_project ON intent_view (project_id);

CREATE TABLE sentence_view (
    id              VARCHAR(24) PRIMARY KEY,
    intent_id       VARCHAR(24) NOT NULL,
    flow_id         VARCHAR(24) NOT NULL,
    project_id      VARCHAR(24) NOT NULL,
    organisation_id VARCHAR(24) NOT NULL,
    locale_id       VARCHAR(24) NOT NULL,
    text            TEXT        NOT NULL,
    created_at      BIGINT      NOT NULL,
    last_changed    BIGINT      NOT NULL,
    created_by      VARCHAR(24) NOT NULL,
    last_changed_by VARCHAR(24) NOT NULL
);
-- All sentences of an intent: (intent_id, sort expression, id); (intent_id, locale_id, id) serves the sort by
-- localeReference here and the sort by _id below.
CREATE INDEX sentence_view_created ON sentence_view (intent_id, created_at, id);
CREATE INDEX sentence_view_changed ON sentence_view (intent_id, last_changed, id);
CREATE INDEX sentence_view_text    ON sentence_view (intent_id, lower(left(text, 200)), id);
CREATE INDEX sentence_view_id      ON sentence_view (intent_id, id);
-- The sentences of an intent in one locale (localeId=...): (intent_id, locale_id, sort expression, id).
CREATE INDEX sentence_view_locale_id      ON sentence_view (intent_id, locale_id, id);
CREATE INDEX sentence_view_locale_created ON sentence_view (intent_id, locale_id, created_at, id);
CREATE INDEX sentence_view_locale_changed ON sentence_view (intent_id, locale_id, last_changed, id);
CREATE INDEX sentence_view_locale_text    ON sentence_view (intent_id, locale_id, lower(left(text, 200)), id);
-- A flow's and a project's deletion.
CREATE INDEX sentence_view_flow    ON sentence_view (flow_id);
CREATE INDEX sentence_view_project ON sentence_view (project_id);

-- Sentences per (intent, locale), kept by the projection (+1 on a new sentence row, -1 on a deleted one), so a
-- list page reads its intents' counts by primary key for the locales of the preferred locale's fallback chain.
CREATE TABLE intent_sentence_count (
    intent_id      VARCHAR(24) NOT NULL,
    locale_id      VARCHAR(24) NOT NULL,
    flow_id        VARCHAR(24) NOT NULL,
    project_id     VARCHAR(24) NOT NULL,
    sentence_count INTEGER     NOT NULL,
    PRIMARY KEY (intent_id, locale_id)
);
CREATE INDEX intent_sentence_count_flow    ON intent_sentence_count (flow_id);
CREATE INDEX intent_sentence_count_project ON intent_sentence_count (project_id);
