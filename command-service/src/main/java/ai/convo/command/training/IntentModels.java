package ai.convo.command.training;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The content-addressed store of trained models ({@code intent_model}, common V13) and a small cache of loaded
 * ones. A row is re-derivable from the log, so it is written outside the event's transaction: a training that
 * fails after writing it leaves a harmless cache entry.
 */
@Component
class IntentModels {

    private static final int CACHED = 16;

    private final JdbcTemplate jdbc;
    private final Map<String, IntentModel> loaded = new LinkedHashMap<>(CACHED, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, IntentModel> eldest) {
            return size() > CACHED;
        }
    };

    IntentModels(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    boolean hasReport(String modelId) {
        return !jdbc.queryForList("SELECT 1 FROM intent_model WHERE model_id = ? AND report IS NOT NULL", Integer.class,
                modelId).isEmpty();
    }

    /** Stores the model; a report, when given, fills in one a quick training left empty. */
    void store(String modelId, byte[] bytes, String reportJson) {
        jdbc.update("INSERT INTO intent_model (model_id, model, report) VALUES (?, ?, ?) ON CONFLICT (model_id) "
                + "DO UPDATE SET report = COALESCE(intent_model.report, EXCLUDED.report)", modelId, bytes, reportJson);
    }

    /**
     * The model of the flow's last training in the locale (its newest FlowIntentsTrained there, or a restore's
     * FlowIntentsTrainingRestored), if any.
     */
    Optional<String> lastTrained(String flowId, String localeId) {
        return jdbc.queryForList("SELECT convert_from(payload, 'UTF8')::jsonb ->> 'modelId' FROM domain_event_entry "
                        + "WHERE aggregate_identifier = ? AND payload_type IN ('ai.convo.contract.flow.FlowIntentsTrainedEvent', "
                        + "'ai.convo.contract.flow.FlowIntentsTrainingRestoredEvent') "
                        + "AND convert_from(payload, 'UTF8')::jsonb ->> 'localeId' = ? "
                        + "ORDER BY sequence_number DESC LIMIT 1", String.class, flowId, localeId).stream().findFirst();
    }

    /** Whether the flow was ever trained (or restored to a training) in the locale with this model. */
    boolean trainedFor(String flowId, String localeId, String modelId) {
        return !jdbc.queryForList("SELECT 1 FROM domain_event_entry WHERE aggregate_identifier = ? AND payload_type IN "
                        + "('ai.convo.contract.flow.FlowIntentsTrainedEvent', "
                        + "'ai.convo.contract.flow.FlowIntentsTrainingRestoredEvent') "
                        + "AND convert_from(payload, 'UTF8')::jsonb ->> 'localeId' = ? "
                        + "AND convert_from(payload, 'UTF8')::jsonb ->> 'modelId' = ? LIMIT 1", Integer.class,
                flowId, localeId, modelId).isEmpty();
    }

    /** The model of a locale's last yes/no training (its newest YesNoIntentsTrained, on the yes intent), if any. */
    Optional<String> lastTrainedYesNo(String yesIntentId) {
        return jdbc.queryForList("SELECT convert_from(payload, 'UTF8')::jsonb ->> 'modelId' FROM domain_event_entry "
                        + "WHERE aggregate_identifier = ? AND payload_type = 'ai.convo.contract.yesno.YesNoIntentsTrainedEvent' "
                        + "ORDER BY sequence_number DESC LIMIT 1", String.class, yesIntentId).stream().findFirst();
    }

    Optional<IntentModel> model(String modelId) {
        synchronized (loaded) {
            IntentModel model = loaded.get(modelId);
            if (model != null) {
                return Optional.of(model);
            }
        }
        List<byte[]> rows = jdbc.queryForList("SELECT model FROM intent_model WHERE model_id = ?", byte[].class, modelId);
        if (rows.isEmpty()) {
            return Optional.empty();
        }
        IntentModel model = IntentModel.read(rows.get(0));
        synchronized (loaded) {
            loaded.put(modelId, model);
        }
        return Optional.of(model);
    }
}
