package ai.convo.query.intent;

import ai.convo.contract.flow.FlowCreatedEvent;
import ai.convo.contract.flow.FlowDeletedEvent;
import ai.convo.contract.flow.FlowIntentsTrainedEvent;
import ai.convo.contract.flow.FlowIntentsTrainingRestoredEvent;
import ai.convo.contract.intent.ChildFeatures;
import ai.convo.contract.intent.IntentCreatedEvent;
import ai.convo.contract.intent.IntentDeletedEvent;
import ai.convo.contract.intent.IntentUpdatedEvent;
import ai.convo.contract.intent.SentenceCreatedEvent;
import ai.convo.contract.intent.SentenceDeletedEvent;
import ai.convo.contract.intent.SentenceUpdatedEvent;
import ai.convo.contract.project.ProjectDeletedEvent;
import ai.convo.http.media.Renderer;
import ai.convo.persistence.BatchingJdbcTemplate;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.axonframework.config.ProcessingGroup;
import org.axonframework.eventhandling.EventHandler;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.axonframework.messaging.unitofwork.CurrentUnitOfWork;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The intent and sentence read models, and the sentence counts per (intent, locale). Plain code a test can
 * feed events; every handler can run twice without changing the result (a count moves only when its
 * sentence row was really inserted or deleted). Sequenced by project ({@link IntentProcessing}).
 * <p>
 * In a processor's transaction the counts and dirty marks of new intents and sentences are folded ({@link Held}): an
 * import's batch writes one count per (intent, locale) and one mark per (flow, locale) instead of a statement per
 * event each. Any other statement writes them first (BatchingJdbcTemplate), as it may read or change those rows.
 */
@Component
@ProcessingGroup(IntentProjection.GROUP)
public class IntentProjection {

    public static final String GROUP = "intents";

    private final JdbcTemplate jdbc;
    /** The template that folds writes per transaction; null when {@link #jdbc} is a plain one (writes at once). */
    private final BatchingJdbcTemplate batching;

    public IntentProjection(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
        this.batching = jdbc instanceof BatchingJdbcTemplate b ? b : null;
    }

    // ---- flows and projects

    @EventHandler
    public void on(FlowCreatedEvent event) {
        jdbc.update("INSERT INTO intent_flow_view (id, project_id, organisation_id) VALUES (?, ?, ?) "
                + "ON CONFLICT (id) DO NOTHING", event.flowId(), event.projectId(), event.organisationId());
    }

    /** The flow's intents and sentences go with it. */
    @EventHandler
    public void on(FlowDeletedEvent event) {
        // dirty marks first: that waits for a refresher writing this flow's reports, whose rows are then deleted
        jdbc.update("DELETE FROM intent_feedback_dirty WHERE flow_id = ?", event.flowId());
        jdbc.update("DELETE FROM intent_feedback WHERE flow_id = ?", event.flowId());
        jdbc.update("DELETE FROM intent_training WHERE flow_id = ?", event.flowId());
        jdbc.update("DELETE FROM intent_sentence_count WHERE flow_id = ?", event.flowId());
        jdbc.update("DELETE FROM sentence_view WHERE flow_id = ?", event.flowId());
        jdbc.update("DELETE FROM intent_view WHERE flow_id = ?", event.flowId());
        jdbc.update("DELETE FROM intent_flow_view WHERE id = ?", event.flowId());
    }

    @EventHandler
    public void on(ProjectDeletedEvent event) {
        String flows = "SELECT id FROM intent_flow_view WHERE project_id = ? "
                + "UNION SELECT DISTINCT flow_id FROM intent_view WHERE project_id = ?";
        jdbc.update("DELETE FROM intent_feedback_dirty WHERE flow_id IN (" + flows + ")", event.projectId(),
                event.projectId());
        jdbc.update("DELETE FROM intent_feedback WHERE flow_id IN (" + flows + ")", event.projectId(), event.projectId());
        jdbc.update("DELETE FROM intent_training WHERE project_id = ?", event.projectId());
        jdbc.update("DELETE FROM intent_sentence_count WHERE project_id = ?", event.projectId());
        jdbc.update("DELETE FROM sentence_view WHERE project_id = ?", event.projectId());
        jdbc.update("DELETE FROM intent_view WHERE project_id = ?", event.projectId());
        jdbc.update("DELETE FROM intent_flow_view WHERE project_id = ?", event.projectId());
    }

    /**
     * The flow's last training in the locale. Its report is copied from the common intent_model table, which the
     * training wrote before the event; a model without one (quick mode) leaves the reports null.
     */
    @EventHandler
    public void on(FlowIntentsTrainedEvent event) {
        lastTraining(event.flowId(), event.localeId(), event.projectId(), event.organisationId(), event.modelId(),
                event.trainingSetHash(), event.mode(), event.trainedAt());
    }

    /** A restore brought back a snapshot's pinned training: the last training again, its time the restore's. */
    @EventHandler
    public void on(FlowIntentsTrainingRestoredEvent event) {
        lastTraining(event.flowId(), event.localeId(), event.projectId(), event.organisationId(), event.modelId(),
                event.trainingSetHash(), event.mode(), event.restoredAt());
    }

    private void lastTraining(String flowId, String localeId, String projectId, String organisationId,
                              String modelId, String trainingSetHash, String mode, long at) {
        jdbc.update("INSERT INTO intent_training (flow_id, locale_id, project_id, organisation_id, model_id, "
                        + "training_set_hash, mode, trained_at, flow_report, intent_reports) "
                        + "SELECT ?, ?, ?, ?, ?, ?, ?, ?, r.report -> 'flow', r.report -> 'intents' FROM (SELECT "
                        + "(SELECT report::jsonb FROM intent_model WHERE model_id = ?) AS report) r "
                        + "ON CONFLICT (flow_id, locale_id) DO UPDATE SET model_id = EXCLUDED.model_id, "
                        + "training_set_hash = EXCLUDED.training_set_hash, mode = EXCLUDED.mode, "
                        + "trained_at = EXCLUDED.trained_at, flow_report = EXCLUDED.flow_report, "
                        + "intent_reports = EXCLUDED.intent_reports",
                flowId, localeId, projectId, organisationId, modelId, trainingSetHash, mode, at, modelId);
    }

    // ---- intents

    @EventHandler
    public void on(IntentCreatedEvent event) {
        insertBeside("INSERT INTO intent_view (id, flow_id, project_id, organisation_id, reference_id, name, description, "
                        + "tags, tags_key, is_reject_intent, is_disabled, parent_intent_id, condition, "
                        + "confirmation_sentences, disambiguation_sentence, rules, data, child_features, bias, created_at, "
                        + "last_changed, created_by, last_changed_by) "
                        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                        + "ON CONFLICT (id) DO NOTHING",
                event.intentId(), event.flowId(), event.projectId(), event.organisationId(), event.referenceId(),
                event.name(), text(event.description()), json(event.tags()), tagsKey(event.tags()), event.rejectIntent(),
                event.disabled(), parentKey(event.parentIntentId()), text(event.condition()),
                json(event.confirmationSentences()), text(event.disambiguationSentence()), json(event.rules()),
                json(event.data()), childFeatures(event.childFeatures()), event.biasTowardsParentOrChildIntents(),
                event.createdAt(), event.createdAt(), event.createdBy(), event.createdBy());
        Held held = held();
        if (held != null) {
            held.flowMarks.putIfAbsent(event.flowId(), currentPosition());
        } else {
            markFlowDirty(event.flowId());
        }
    }

    @EventHandler
    public void on(IntentUpdatedEvent event) {
        String before = jdbc.query("SELECT name FROM intent_view WHERE id = ?",
                rs -> rs.next() ? rs.getString(1) : null, event.intentId());
        jdbc.update("UPDATE intent_view SET name = ?, description = ?, tags = ?, tags_key = ?, is_reject_intent = ?, "
                        + "is_disabled = ?, parent_intent_id = ?, condition = ?, confirmation_sentences = ?, "
                        + "disambiguation_sentence = ?, rules = ?, data = ?, child_features = ?, bias = ?, "
                        + "last_changed = ?, last_changed_by = ? WHERE id = ?",
                event.name(), text(event.description()), json(event.tags()), tagsKey(event.tags()), event.rejectIntent(),
                event.disabled(), parentKey(event.parentIntentId()), text(event.condition()),
                json(event.confirmationSentences()), text(event.disambiguationSentence()), json(event.rules()),
                json(event.data()), childFeatures(event.childFeatures()), event.biasTowardsParentOrChildIntents(),
                event.changedAt(), event.changedBy(), event.intentId());
        if (before != null && !before.equals(event.name())) {
            markFlowDirty(event.flowId()); // overlap findings of other intents name it
        }
    }

    /**
     * The intent and its sentences are gone. Its children become roots: the write side emits an
     * IntentUpdatedEvent for each of them right after this event; they are detached here as well, so no
     * row ever names a deleted parent.
     */
    @EventHandler
    public void on(IntentDeletedEvent event) {
        markFlowDirty(event.flowId()); // before its sentences go: their locales are among the flow's
        jdbc.update("DELETE FROM intent_feedback WHERE intent_id = ?", event.intentId());
        jdbc.update("DELETE FROM intent_sentence_count WHERE intent_id = ?", event.intentId());
        jdbc.update("DELETE FROM sentence_view WHERE intent_id = ?", event.intentId());
        jdbc.update("DELETE FROM intent_view WHERE id = ?", event.intentId());
        jdbc.update("UPDATE intent_view SET parent_intent_id = '' WHERE flow_id = ? AND parent_intent_id = ?",
                event.flowId(), event.intentId());
    }

    // ---- sentences

    @EventHandler
    public void on(SentenceCreatedEvent event) {
        int inserted = insertBeside("INSERT INTO sentence_view (id, intent_id, flow_id, project_id, organisation_id, "
                        + "locale_id, text, created_at, last_changed, created_by, last_changed_by) "
                        + "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
                event.sentenceId(), event.intentId(), event.flowId(), event.projectId(), event.organisationId(),
                event.localeId(), event.text(), event.createdAt(), event.createdAt(), event.createdBy(),
                event.createdBy());
        if (inserted != 1) {
            return;
        }
        Held held = held();
        if (held != null) {
            held.counts.computeIfAbsent(List.of(event.intentId(), event.localeId()),
                    k -> new Count(event.flowId(), event.projectId())).added++;
            held.marks.putIfAbsent(List.of(event.flowId(), event.localeId()), currentPosition());
            return;
        }
        jdbc.update("INSERT INTO intent_sentence_count (intent_id, locale_id, flow_id, project_id, sentence_count) "
                        + "VALUES (?, ?, ?, ?, 1) ON CONFLICT (intent_id, locale_id) "
                        + "DO UPDATE SET sentence_count = intent_sentence_count.sentence_count + 1",
                event.intentId(), event.localeId(), event.flowId(), event.projectId());
        markDirty(event.flowId(), event.localeId());
    }

    @EventHandler
    public void on(SentenceUpdatedEvent event) {
        int updated = jdbc.update("UPDATE sentence_view SET text = ?, last_changed = ?, last_changed_by = ? WHERE id = ?",
                event.text(), event.changedAt(), event.changedBy(), event.sentenceId());
        if (updated == 1) {
            jdbc.update(MARK + "SELECT flow_id, locale_id, nextval('intent_feedback_generation'), ? FROM sentence_view "
                    + "WHERE id = ?" + ON_MARKED, currentPosition(), event.sentenceId());
        }
    }

    @EventHandler
    public void on(SentenceDeletedEvent event) {
        int deleted = jdbc.update("DELETE FROM sentence_view WHERE id = ?", event.sentenceId());
        if (deleted == 1) {
            jdbc.update("UPDATE intent_sentence_count SET sentence_count = sentence_count - 1 "
                    + "WHERE intent_id = ? AND locale_id = ?", event.intentId(), event.localeId());
            jdbc.update("DELETE FROM intent_sentence_count WHERE intent_id = ? AND locale_id = ? AND sentence_count <= 0",
                    event.intentId(), event.localeId());
            markDirty(event.flowId(), event.localeId());
        }
    }

    // ---- feedback reports: what changes the analysis input of a (flow, locale) marks it dirty, in this transaction

    private static final String MARK = "INSERT INTO intent_feedback_dirty (flow_id, locale_id, generation, first_position) ";
    /**
     * A new generation on an existing mark takes its row lock (ON CONFLICT DO NOTHING would not): a refresher
     * cannot claim the pair while this transaction is open, and one that claimed it before sees the generation
     * change and discards its result. marked_at keeps the first mark, so a busy pair keeps its place in line, and
     * first_position the first change not yet analysed, which reads that must reflect it wait for.
     */
    private static final String ON_MARKED = " ON CONFLICT (flow_id, locale_id) DO UPDATE SET generation = EXCLUDED.generation";

    private void markDirty(String flowId, String localeId) {
        jdbc.update(MARK + "VALUES (?, ?, nextval('intent_feedback_generation'), ?)" + ON_MARKED, flowId, localeId,
                currentPosition());
    }

    /**
     * Every locale the flow has sentences in (the intents of a flow are part of every locale's analysis), found by
     * skipping from one locale to the next in the (flow_id, locale_id) index: a DISTINCT read all of the flow's rows,
     * once per new intent, which made an import quadratic in its intents.
     */
    private void markFlowDirty(String flowId) {
        jdbc.update(LOCALES + MARK + "SELECT ?, locale_id, nextval('intent_feedback_generation'), ? FROM locales "
                + "WHERE locale_id IS NOT NULL" + ON_MARKED,
                flowId, flowId, flowId, currentPosition());
    }

    private static final String LOCALES = "WITH RECURSIVE locales (locale_id) AS ("
            + "(SELECT locale_id FROM intent_sentence_count WHERE flow_id = ? ORDER BY locale_id LIMIT 1) "
            + "UNION ALL SELECT (SELECT c.locale_id FROM intent_sentence_count c WHERE c.flow_id = ? "
            + "AND c.locale_id > l.locale_id ORDER BY c.locale_id LIMIT 1) FROM locales l WHERE l.locale_id IS NOT NULL) ";
    private static final String FLOW_LOCALES = LOCALES + "SELECT locale_id FROM locales WHERE locale_id IS NOT NULL";

    // ---- what new intents and sentences changed, folded until the batch's commit or the next other statement

    private static final class Count {
        final String flowId;
        final String projectId;
        int added;

        Count(String flowId, String projectId) {
            this.flowId = flowId;
            this.projectId = projectId;
        }
    }

    /**
     * Sentences added per (intent, locale); the first position that marked each (flow, locale), and each flow (a new
     * intent marks every locale the flow had sentences in then). Written as one statement each; a mark keeps the
     * first position and takes a new generation, as one statement per event did.
     */
    private final class Held implements BatchingJdbcTemplate.Folded {
        final Map<List<String>, Count> counts = new LinkedHashMap<>();
        final Map<List<String>, Long> marks = new LinkedHashMap<>();
        final Map<String, Long> flowMarks = new LinkedHashMap<>();

        @Override
        public void write() {
            // The flows' locales before this fold's counts are written: those the flow had when its intent was created
            // (a locale whose first sentence came after that has its own, later mark, which came first in time
            // if it is earlier: the smaller position wins).
            Map<List<String>, Long> all = new LinkedHashMap<>(marks);
            flowMarks.forEach((flowId, position) -> {
                for (String localeId : jdbc.queryForList(FLOW_LOCALES, String.class, flowId, flowId)) {
                    all.merge(List.of(flowId, localeId), position, Math::min);
                }
            });
            if (!counts.isEmpty()) {
                int n = counts.size();
                String[] intents = new String[n];
                String[] locales = new String[n];
                String[] flows = new String[n];
                String[] projects = new String[n];
                Integer[] added = new Integer[n];
                int i = 0;
                for (Map.Entry<List<String>, Count> e : counts.entrySet()) {
                    intents[i] = e.getKey().get(0);
                    locales[i] = e.getKey().get(1);
                    flows[i] = e.getValue().flowId;
                    projects[i] = e.getValue().projectId;
                    added[i++] = e.getValue().added;
                }
                jdbc.update("INSERT INTO intent_sentence_count (intent_id, locale_id, flow_id, project_id, sentence_count) "
                        + "SELECT * FROM unnest(?::varchar[], ?::varchar[], ?::varchar[], ?::varchar[], ?::int[]) "
                        + "ON CONFLICT (intent_id, locale_id) "
                        + "DO UPDATE SET sentence_count = intent_sentence_count.sentence_count + EXCLUDED.sentence_count",
                        intents, locales, flows, projects, added);
            }
            if (!all.isEmpty()) {
                int n = all.size();
                String[] flows = new String[n];
                String[] locales = new String[n];
                Long[] positions = new Long[n];
                int i = 0;
                for (Map.Entry<List<String>, Long> e : all.entrySet()) {
                    flows[i] = e.getKey().get(0);
                    locales[i] = e.getKey().get(1);
                    positions[i++] = e.getValue();
                }
                jdbc.update(MARK + "SELECT f, l, nextval('intent_feedback_generation'), p "
                        + "FROM unnest(?::varchar[], ?::varchar[], ?::bigint[]) AS m (f, l, p)" + ON_MARKED,
                        flows, locales, positions);
            }
        }
    }

    /** This transaction's folded counts and marks; null outside one (or with a plain template): write at once. */
    private Held held() {
        return batching == null ? null : batching.folded(this, Held::new);
    }

    /** An insert of an intent or sentence row: it neither reads nor changes the folded counts and marks. */
    private int insertBeside(String sql, Object... args) {
        return batching != null ? batching.updateKeepingFolded(sql, args) : jdbc.update(sql, args);
    }

    /**
     * The global position of the event being handled; 0 (which every read-your-writes wait honours) when it is not
     * known, e.g. when a test feeds the event directly.
     */
    private static long currentPosition() {
        if (!CurrentUnitOfWork.isStarted()
                || !(CurrentUnitOfWork.get().getMessage() instanceof TrackedEventMessage<?> tracked)
                || tracked.trackingToken() == null) {
            return 0;
        }
        return tracked.trackingToken().position().orElse(0);
    }

    // ---- column values

    static String parentKey(String parentIntentId) {
        return parentIntentId == null ? "" : parentIntentId;
    }

    static String tagsKey(List<String> tags) {
        return tags == null ? "" : String.join(",", tags).toLowerCase(Locale.ROOT);
    }

    private static String text(String value) {
        return value == null ? "" : value;
    }

    private static String json(Object value) {
        return Renderer.JSON.writeValueAsString(value == null ? List.of() : value);
    }

    private static String childFeatures(ChildFeatures value) {
        return Renderer.JSON.writeValueAsString(value == null ? false : value.toWire());
    }
}
