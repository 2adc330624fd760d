-- Intent feature, write side.

-- The project of each intent, so that a project's deletion clears its intents from the lookup (the flow
-- lookup of that project may be cleared first, in the same transaction).
ALTER TABLE cmd_intent_lookup ADD COLUMN project_id VARCHAR(24);
CREATE INDEX cmd_intent_lookup_by_project ON cmd_intent_lookup (project_id);

-- Primary and fallback of every locale, kept from the locale events in the same transaction, so that a
-- write answers the intent's localeReference by the same rule as the query service (preferred locale, its
-- fallback chain, the primary locale).
CREATE TABLE cmd_intent_locale (
    locale_id          VARCHAR(24) PRIMARY KEY,
    project_id         VARCHAR(24) NOT NULL,
    fallback_locale_id VARCHAR(24),
    is_primary         BOOLEAN     NOT NULL
);
CREATE INDEX cmd_intent_locale_by_project ON cmd_intent_locale (project_id);
