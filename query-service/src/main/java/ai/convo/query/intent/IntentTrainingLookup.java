package ai.convo.query.intent;

import ai.convo.query.readmodel.ReadModel;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/**
 * What a flow read shows of the flow's training in one locale: {@code feedbackReport} (the flow part of the last full
 * training's cross-validation, null before one) and {@code isTrainingOutOfDate}, exact: the hash of the flow's
 * current training set, computed here in SQL exactly as the write side's TrainingSet hashes it (SHA-256 of the lines
 * {@code intentId TAB name TAB text LF}, NFC, of the enabled intents' sentences in the locale, in byte order),
 * against the hash the last training recorded. An edit that is undone leaves the two equal again.
 */
@Component
public class IntentTrainingLookup {

    private static final String SQL = "WITH trained AS (SELECT training_set_hash, flow_report::text AS report "
            + "FROM intent_training WHERE flow_id = :flow AND locale_id = :locale), "
            + "now AS (SELECT encode(sha256(COALESCE(string_agg(line, ''::bytea ORDER BY line), ''::bytea)), 'hex') "
            + "AS hash, count(*) AS sentences FROM (SELECT convert_to(i.id || E'\\t' || normalize(i.name, NFC) "
            + "|| E'\\t' || normalize(s.text, NFC) || E'\\n', 'UTF8') AS line FROM sentence_view s "
            + "JOIN intent_view i ON i.id = s.intent_id "
            + "WHERE s.flow_id = :flow AND s.locale_id = :locale AND NOT i.is_disabled) lines) "
            + "SELECT (SELECT training_set_hash FROM trained) AS trained_hash, (SELECT report FROM trained) AS report, "
            + "now.hash, now.sentences FROM now";

    private final DatabaseClient db;

    public IntentTrainingLookup(@ReadModel DatabaseClient db) {
        this.db = db;
    }

    /**
     * {@code feedbackReport} and {@code isTrainingOutOfDate} of the flow in the locale. A flow never trained there is
     * out of date when it has sentences to train on.
     */
    public Mono<Map<String, Object>> of(String flowId, String localeId) {
        return db.sql(SQL).bind("flow", flowId).bind("locale", localeId)
                .map(row -> {
                    String trained = row.get("trained_hash", String.class);
                    String report = row.get("report", String.class);
                    Long sentences = row.get("sentences", Long.class);
                    Map<String, Object> out = new LinkedHashMap<>();
                    out.put("feedbackReport", report == null ? null : IntentFeedbackReads.parse(report));
                    out.put("isTrainingOutOfDate", trained == null ? sentences != null && sentences > 0
                            : !trained.equals(row.get("hash", String.class)));
                    return out;
                }).one();
    }
}
