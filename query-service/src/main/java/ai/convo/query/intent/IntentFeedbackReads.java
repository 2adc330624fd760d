package ai.convo.query.intent;

import ai.convo.http.media.Renderer;
import ai.convo.query.feedback.FeedbackAnalysis;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import ai.convo.query.readmodel.ReadModel;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;
import tools.jackson.core.type.TypeReference;

/**
 * The stored feedback reports behind {@code includeFeedbackReport=true}. A list page reads its intents' reports in
 * two queries. For each item the report of its localeReference is shown:
 * <ul>
 *   <li>the flow trained in full in that locale and the intent was part of it: the cross-validated report of the
 *       last trained model ({@code intent_training}, projected from FlowIntentsTrained), as it stood then;</li>
 *   <li>pair dirty (a change not yet analysed): {@code null};</li>
 *   <li>stored row: that report (the nearest-centroid heuristic of {@link IntentFeedbackRefresher});</li>
 *   <li>no row and not dirty: the flow has no sentence in that locale (the refresher stores no rows then), so the
 *       report is that of an intent without sentences among {@code n} such intents, which depends only on
 *       whether n = 1 — taken from {@link FeedbackAnalysis} itself.</li>
 * </ul>
 */
@Component
class IntentFeedbackReads {

    static final Duration POLL = Duration.ofMillis(50);

    private static final Map<String, Object> ALONE_WITHOUT_SENTENCES = FeedbackAnalysis.analyse(List.of(
            new FeedbackAnalysis.IntentSentences("a", "a", List.of()))).get("a").toWire();
    private static final Map<String, Object> WITHOUT_SENTENCES = FeedbackAnalysis.analyse(List.of(
            new FeedbackAnalysis.IntentSentences("a", "a", List.of()),
            new FeedbackAnalysis.IntentSentences("b", "b", List.of()))).get("a").toWire();

    private final DatabaseClient db;

    public IntentFeedbackReads(@ReadModel DatabaseClient db) {
        this.db = db;
    }

    /** What the list shows for the items: intent id -> locale -> report (a missing locale: no report). */
    record Reports(Map<String, Map<String, Map<String, Object>>> stored, List<String> dirtyLocales, long intentsInFlow,
                   Map<String, Map<String, Map<String, Object>>> trained) {

        Reports(Map<String, Map<String, Map<String, Object>>> stored, List<String> dirtyLocales, long intentsInFlow) {
            this(stored, dirtyLocales, intentsInFlow, Map.of());
        }

        Reports withTrained(Map<String, Map<String, Map<String, Object>>> trained) {
            return new Reports(stored, dirtyLocales, intentsInFlow, trained);
        }

        /** The report of the intent in the locale, or null while it is being recomputed. */
        Map<String, Object> of(String intentId, String localeId) {
            Map<String, Object> fromModel = trained.getOrDefault(intentId, Map.of()).get(localeId);
            if (fromModel != null) {
                return fromModel;
            }
            if (dirtyLocales.contains(localeId)) {
                return null;
            }
            Map<String, Object> report = stored.getOrDefault(intentId, Map.of()).get(localeId);
            if (report != null) {
                return report;
            }
            return intentsInFlow == 1 ? copy(ALONE_WITHOUT_SENTENCES) : copy(WITHOUT_SENTENCES);
        }
    }

    /**
     * The reports of these intents of the flow in these locales, for a read that must reflect every change up to
     * {@code position} (0: none). Such a read first waits, until {@code deadlineNanos}, for every mark at or below
     * it to be analysed; a pair still marked then is a {@link ReportsPending}. A pair marked only by later changes
     * shows its stored report, which reflects the position; without a position, every marked pair shows null.
     */
    Mono<Reports> reports(String flowId, Collection<String> intentIds, Collection<String> localeIds, long position,
                          long deadlineNanos) {
        if (intentIds.isEmpty() || localeIds.isEmpty()) {
            return Mono.just(new Reports(Map.of(), List.of(), 0));
        }
        long upTo = position > 0 ? position : Long.MAX_VALUE;
        Mono<List<String>> dirty = Mono.defer(() -> dirtyLocales(flowId, localeIds, upTo));
        // Polls until the deadline rather than cancelling a query in flight (see ProjectionProgress).
        Mono<List<String>> settled = position <= 0 ? dirty
                : dirty.filter(List::isEmpty)
                        .repeatWhenEmpty(repeats -> repeats.takeWhile(i -> System.nanoTime() < deadlineNanos)
                                .delayElements(POLL))
                        .switchIfEmpty(Mono.error(() -> new ReportsPending(position)));
        // the rows are read after the dirty check: a pair clean then has its current rows now (or newer ones)
        return settled.flatMap(dirtyLocales -> stored(intentIds, localeIds)
                .zipWith(intentsInFlow(flowId), (stored, count) -> new Reports(stored, dirtyLocales, count)))
                .zipWith(trained(flowId, intentIds, localeIds), Reports::withTrained);
    }

    /** The last full training's report of each of these intents in each locale the flow was so trained in. */
    private Mono<Map<String, Map<String, Map<String, Object>>>> trained(String flowId, Collection<String> intentIds,
                                                                        Collection<String> localeIds) {
        return db.sql("SELECT t.locale_id, k.id AS intent_id, (t.intent_reports -> k.id)::text AS report "
                        + "FROM intent_training t CROSS JOIN unnest(CAST(:intents AS text[])) AS k(id) "
                        + "WHERE t.flow_id = :flow AND t.locale_id = ANY(:locales) "
                        + "AND (t.intent_reports -> k.id) IS NOT NULL")
                .bind("flow", flowId)
                .bind("intents", intentIds.toArray(String[]::new))
                .bind("locales", localeIds.toArray(String[]::new))
                .map(row -> new String[] {row.get("intent_id", String.class), row.get("locale_id", String.class),
                        row.get("report", String.class)})
                .all()
                .collect(HashMap::new, (Map<String, Map<String, Map<String, Object>>> out, String[] row) -> out
                        .computeIfAbsent(row[0], k -> new HashMap<>()).put(row[1], parse(row[2])));
    }

    /** Reports a read must reflect were not recomputed in time. */
    static final class ReportsPending extends RuntimeException {

        final long position;

        ReportsPending(long position) {
            super(null, null, false, false);
            this.position = position;
        }
    }

    private Mono<List<String>> dirtyLocales(String flowId, Collection<String> localeIds, long upTo) {
        return db.sql("SELECT locale_id FROM intent_feedback_dirty WHERE flow_id = :flow AND locale_id = ANY(:locales) "
                        + "AND first_position <= :upTo")
                .bind("flow", flowId).bind("locales", localeIds.toArray(String[]::new)).bind("upTo", upTo)
                .map(row -> row.get("locale_id", String.class))
                .all().collectList();
    }

    private Mono<Map<String, Map<String, Map<String, Object>>>> stored(Collection<String> intentIds,
                                                                       Collection<String> localeIds) {
        return db.sql("SELECT intent_id, locale_id, report FROM intent_feedback "
                        + "WHERE intent_id = ANY(:intents) AND locale_id = ANY(:locales)")
                .bind("intents", intentIds.toArray(String[]::new))
                .bind("locales", localeIds.toArray(String[]::new))
                .map(row -> new String[] {row.get("intent_id", String.class), row.get("locale_id", String.class),
                        row.get("report", String.class)})
                .all()
                .collect(HashMap::new, (Map<String, Map<String, Map<String, Object>>> out, String[] row) -> out
                        .computeIfAbsent(row[0], k -> new HashMap<>()).put(row[1], parse(row[2])));
    }

    private Mono<Long> intentsInFlow(String flowId) {
        return db.sql("SELECT count(*) AS n FROM intent_view WHERE flow_id = :flow")
                .bind("flow", flowId)
                .map(row -> row.get("n", Long.class)).one().defaultIfEmpty(0L);
    }

    static Map<String, Object> parse(String json) {
        return Renderer.JSON.readValue(json, new TypeReference<LinkedHashMap<String, Object>>() { });
    }

    private static Map<String, Object> copy(Map<String, Object> wire) {
        return parse(Renderer.JSON.writeValueAsString(wire));
    }
}
