package ai.convo.query.intent;

import ai.convo.contract.intent.IntentLocales;
import ai.convo.http.problem.ApiProblem;
import io.r2dbc.spi.Readable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import ai.convo.query.readmodel.ReadModel;
import ai.convo.query.web.list.Parent;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Mono;

/** The reads behind the intent and sentence routes beyond the list engine: flows, locales, counts, subtrees. */
@Component
class IntentReads {

    /** Bound of the descendants walk; the write model never lets parents form a cycle. */
    static final int MAX_DEPTH = 1000;

    /**
     * The locales an answer is given in: the preferred locale's fallback chain (the primary locale's when no
     * locale was preferred) and the project's primary locale.
     */
    record Locales(List<String> chain, String primary) {

        Set<String> all() {
            Set<String> all = new LinkedHashSet<>(chain);
            if (primary != null) {
                all.add(primary);
            }
            return all;
        }

        IntentLocales.Resolved resolve(Map<String, Long> sentencesPerLocale) {
            return IntentLocales.resolve(chain, primary, locale -> sentencesPerLocale.getOrDefault(locale, 0L));
        }
    }

    private final DatabaseClient db;

    public IntentReads(@ReadModel DatabaseClient db) {
        this.db = db;
    }

    /** Whether the intent exists in this flow of this organisation. */
    Mono<Boolean> intentExists(String flowId, String intentId, String organisationId) {
        Parent intent = intentOf(flowId, intentId, organisationId);
        DatabaseClient.GenericExecuteSpec query = db.sql(intent.existsSql());
        for (Map.Entry<String, Object> bind : intent.binds().entrySet()) {
            query = query.bind(bind.getKey(), bind.getValue());
        }
        return query.map(row -> true).one().defaultIfEmpty(false);
    }

    /** The intent of the flow in the organisation, as the parent of a list (its sentences). */
    static Parent intentOf(String flowId, String intentId, String organisationId) {
        return new Parent("SELECT 1 FROM intent_view WHERE id = :parent_id AND flow_id = :parent_flow "
                + "AND organisation_id = :parent_org", Map.of("parent_id", intentId, "parent_flow", flowId,
                "parent_org", organisationId), "Intent " + intentId + " of flow " + flowId);
    }

    /**
     * The project's locales as the chain of {@code preferred} (null: the primary locale) and the primary. A
     * preferred locale that is not one of the project's is a 400 naming {@code parameter}.
     */
    Mono<Locales> locales(String projectId, String organisationId, String preferred, String parameter) {
        return db.sql("SELECT id, fallback_locale_reference, is_primary FROM locale_view "
                        + "WHERE organisation_id = :org AND project_id = :project")
                .bind("org", organisationId).bind("project", projectId)
                .map(IntentReads::localeRow)
                .all()
                .collectList()
                .flatMap(rows -> chainOf(rows, preferred, parameter));
    }

    /**
     * The flow's project locales as {@link #locales} gives them, in one query with the flow's visibility: empty
     * when the flow does not exist in this organisation.
     */
    Mono<Locales> flowLocales(String flowId, String organisationId, String preferred, String parameter) {
        return db.sql("SELECT l.id, l.fallback_locale_reference, l.is_primary FROM intent_flow_view f "
                        + "LEFT JOIN locale_view l ON l.organisation_id = f.organisation_id AND l.project_id = f.project_id "
                        + "WHERE f.id = :flow AND f.organisation_id = :org")
                .bind("flow", flowId).bind("org", organisationId)
                .map(IntentReads::localeRow)
                .all()
                .collectList()
                .filter(rows -> !rows.isEmpty())
                .flatMap(rows -> chainOf(rows.stream().filter(row -> row[0] != null).toList(), preferred, parameter));
    }

    private static String[] localeRow(Readable row) {
        return new String[] {row.get("id", String.class), row.get("fallback_locale_reference", String.class),
                Boolean.TRUE.equals(row.get("is_primary", Boolean.class)) ? "primary" : ""};
    }

    private static Mono<Locales> chainOf(List<String[]> rows, String preferred, String parameter) {
        Map<String, String> fallbackOf = new HashMap<>();
        String primary = null;
        for (String[] row : rows) {
            fallbackOf.put(row[0], row[1]);
            if (!row[2].isEmpty()) {
                primary = row[0];
            }
        }
        if (preferred != null && !fallbackOf.containsKey(preferred)) {
            return Mono.error(ApiProblem.invalidParameter(parameter, parameter + " " + preferred
                    + " is not a locale of this flow's project; use one of the project's locales."));
        }
        return Mono.just(new Locales(IntentLocales.chain(preferred != null ? preferred : primary, fallbackOf), primary));
    }

    /** Sentences per intent and locale, for these intents and locales only (primary-key lookups). */
    Mono<Map<String, Map<String, Long>>> sentenceCounts(Collection<String> intentIds, Collection<String> localeIds) {
        if (intentIds.isEmpty() || localeIds.isEmpty()) {
            return Mono.just(Map.of());
        }
        return db.sql("SELECT intent_id, locale_id, sentence_count FROM intent_sentence_count "
                        + "WHERE intent_id = ANY(:intents) AND locale_id = ANY(:locales)")
                .bind("intents", intentIds.toArray(String[]::new))
                .bind("locales", localeIds.toArray(String[]::new))
                .map(row -> new Object[] {row.get("intent_id", String.class), row.get("locale_id", String.class),
                        row.get("sentence_count", Integer.class)})
                .all()
                .collect(HashMap::new, (Map<String, Map<String, Long>> counts, Object[] row) -> counts
                        .computeIfAbsent((String) row[0], k -> new HashMap<>())
                        .put((String) row[1], ((Integer) row[2]).longValue()));
    }

    /**
     * Every descendant of these intents as list items, level by level: each level is one query on the index
     * (flow_id, parent_intent_id, ...) for the children of the level above, in creation order, so every
     * intent's children come in creation order. Never a scan of the flow.
     */
    Mono<List<Map<String, Object>>> descendants(String flowId, String organisationId, Collection<String> intentIds) {
        return below(flowId, organisationId, List.copyOf(intentIds), 0, new ArrayList<>());
    }

    private Mono<List<Map<String, Object>>> below(String flowId, String organisationId, List<String> parents, int depth,
                                                  List<Map<String, Object>> found) {
        if (parents.isEmpty() || depth >= MAX_DEPTH) {
            return Mono.just(found);
        }
        return db.sql("SELECT * FROM intent_view WHERE flow_id = :flow AND organisation_id = :org "
                        + "AND parent_intent_id = ANY(:parents) ORDER BY created_at, id")
                .bind("flow", flowId).bind("org", organisationId).bind("parents", parents.toArray(String[]::new))
                .map(IntentRows::listItem)
                .all()
                .collectList()
                .flatMap(level -> {
                    found.addAll(level);
                    List<String> next = level.stream().map(item -> (String) item.get("_id")).toList();
                    return below(flowId, organisationId, next, depth + 1, found);
                });
    }
}
