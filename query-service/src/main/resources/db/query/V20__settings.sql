-- Project and flow settings (readProjectSettings, readFlowSettings): the values a client set, flat (dotted setting
-- path to value; the defaults are the services' Settings schema), kept on the owner's row so that a read at a past
-- moment (asOf, from row_history) shows the settings of then too. settings_changed_at/by are NULL until a first
-- change: the settings then date from the owner's creation.
ALTER TABLE project_view
    ADD COLUMN settings            JSONB       NOT NULL DEFAULT '{}',
    ADD COLUMN settings_changed_at BIGINT,
    ADD COLUMN settings_changed_by VARCHAR(24);

ALTER TABLE flow_view
    ADD COLUMN settings            JSONB       NOT NULL DEFAULT '{}',
    ADD COLUMN locale_settings     JSONB       NOT NULL DEFAULT '{}',
    ADD COLUMN settings_changed_at BIGINT,
    ADD COLUMN settings_changed_by VARCHAR(24);
