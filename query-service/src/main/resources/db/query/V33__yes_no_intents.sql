-- The yes, no and reject intents of each locale (the official client's yes/no intent methods). Every live locale has
-- its three from its creation, with the built-in sentences of its language until they are first written.
CREATE TABLE yes_no_intent_view (
    id              VARCHAR(24) PRIMARY KEY,
    locale_id       VARCHAR(24) NOT NULL,
    project_id      VARCHAR(24) NOT NULL,
    organisation_id VARCHAR(24) NOT NULL,
    kind            TEXT        NOT NULL,
    rules           JSONB       NOT NULL,
    is_disabled     BOOLEAN     NOT NULL,
    -- false while the intent holds the built-in sentences of the locale's current language (a language change
    -- re-seeds it); true once written, when the stored seed and changes decide
    is_seeded       BOOLEAN     NOT NULL,
    created_at      BIGINT      NOT NULL,
    last_changed    BIGINT      NOT NULL,
    created_by      VARCHAR(24) NOT NULL,
    last_changed_by VARCHAR(24) NOT NULL
);
CREATE INDEX yes_no_intent_view_locale ON yes_no_intent_view (locale_id);
CREATE INDEX yes_no_intent_view_project ON yes_no_intent_view (project_id);

CREATE TABLE yes_no_sentence (
    id                VARCHAR(24) PRIMARY KEY,
    yes_no_intent_id  VARCHAR(24) NOT NULL,
    locale_id         VARCHAR(24) NOT NULL,
    project_id        VARCHAR(24) NOT NULL,
    organisation_id   VARCHAR(24) NOT NULL,
    text              TEXT        NOT NULL,
    created_at        BIGINT      NOT NULL,
    last_changed      BIGINT      NOT NULL
);
CREATE INDEX yes_no_sentence_created ON yes_no_sentence (organisation_id, yes_no_intent_id, created_at, id);
CREATE INDEX yes_no_sentence_text ON yes_no_sentence (organisation_id, yes_no_intent_id, lower(left(text, 200)), id);
CREATE INDEX yes_no_sentence_locale ON yes_no_sentence (locale_id);
CREATE INDEX yes_no_sentence_project ON yes_no_sentence (project_id);
