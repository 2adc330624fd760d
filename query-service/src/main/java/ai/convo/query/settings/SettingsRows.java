package ai.convo.query.settings;

import ai.convo.contract.settings.SettingsRecord;
import ai.convo.contract.settings.SettingsSchema;
import ai.convo.http.media.Renderer;
import io.r2dbc.spi.Readable;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import tools.jackson.core.type.TypeReference;

/**
 * The settings kept on an owner's row (project_view, flow_view: {@code settings}, for flows {@code locale_settings},
 * and when they last changed) as the API shows them. A row from before the settings columns (a read at a past moment)
 * has none: all defaults, dated from the owner's creation.
 */
public final class SettingsRows {

    private SettingsRows() {
    }

    /** A mapper of owner rows to the settings read of {@code schema}; {@code withLocales} for a flow's. */
    public static Function<Readable, Map<String, Object>> wire(SettingsSchema schema, boolean withLocales) {
        return row -> {
            Long changedAt = row.get("settings_changed_at", Long.class);
            String changedBy = row.get("settings_changed_by", String.class);
            Map<String, Boolean> locales = withLocales
                    ? json(row.get("locale_settings", String.class), new TypeReference<LinkedHashMap<String, Boolean>>() { })
                    : null;
            return new SettingsRecord(row.get("id", String.class),
                    json(row.get("settings", String.class), new TypeReference<LinkedHashMap<String, Object>>() { }),
                    locales, row.get("created_at", Long.class), row.get("created_by", String.class),
                    changedAt == null ? row.get("created_at", Long.class) : changedAt,
                    changedBy == null ? row.get("created_by", String.class) : changedBy).toWire(schema);
        };
    }

    private static <T extends Map<?, ?>> T json(String text, TypeReference<T> type) {
        return Renderer.JSON.readValue(text == null ? "{}" : text, type);
    }
}
