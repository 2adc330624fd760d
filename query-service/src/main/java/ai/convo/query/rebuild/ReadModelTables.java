package ai.convo.query.rebuild;

import ai.convo.contract.rebuild.Projections;
import ai.convo.contract.resource.ResourceTypes;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which tables each projection (processing group) keeps, so that a rebuild knows what to fill beside the live ones and
 * what to switch. A test checks this against the processing groups and the tables of the schema, so it cannot go
 * stale when a projection or a table is added.
 */
public final class ReadModelTables {

    /**
     * One projection's tables. {@code switched}: derived from the events by its handlers, rebuilt and switched.
     * {@code scratch}: written by the handlers but kept by something else (the feedback refresher's work queue and
     * reports, computed from the switched tables); a rebuild gives the handlers an empty copy and throws it away.
     */
    public record Projection(String processor, List<String> switched, List<String> scratch) {
    }

    /**
     * Tables a projection keeps beside its resource types' tables (ResourceTypes: the view of each type), switched
     * and scratch as above.
     */
    private static final Map<String, Projection> BESIDE_RESOURCE_TABLES = Map.of(
            "functions", new Projection("functions", List.of("function_project"), List.of()),
            "intents", new Projection("intents", List.of("intent_flow_view", "intent_sentence_count",
                    "intent_training"),
                    List.of("intent_feedback", "intent_feedback_dirty")),
            "knowledge", new Projection("knowledge", List.of("knowledge_project"), List.of()),
            "slotfillers", new Projection("slotfillers", List.of("slot_filler_flow"), List.of()),
            "yesnointents", new Projection("yesnointents", List.of("yes_no_sentence"), List.of()),
            "snapshots", new Projection("snapshots", List.of("snapshot_resource_view"), List.of()),
            "login-attempts", new Projection("login-attempts", List.of("login_attempt_view"), List.of()),
            "callcounter", new Projection("callcounter", List.of("call_counter_day", "call_counter_minute",
                    "call_counter_batch"), List.of()),
            Projections.EVENT_LOG, new Projection(Projections.EVENT_LOG, List.of("event_log", "audit_event",
                    "audit_event_overflow"), List.of()));

    /** Every projection, in the operator's order (Projections.NAMES), with its resource types' tables first. */
    public static final Map<String, Projection> PROJECTIONS;

    static {
        Map<String, Projection> all = new LinkedHashMap<>();
        for (String name : Projections.NAMES) {
            List<String> switched = new ArrayList<>();
            ResourceTypes.ALL.stream().filter(t -> name.equals(t.projection()) && t.table() != null)
                    .forEach(t -> switched.add(t.table()));
            Projection beside = BESIDE_RESOURCE_TABLES.get(name);
            switched.addAll(beside == null ? List.of() : beside.switched());
            all.put(name, new Projection(name, List.copyOf(switched), beside == null ? List.of() : beside.scratch()));
        }
        PROJECTIONS = java.util.Collections.unmodifiableMap(all);
    }

    /**
     * Tables of the query schema that no projection derives from events, and why; they are neither rebuilt nor part
     * of the digest.
     */
    public static final Map<String, String> NOT_DERIVED = Map.of(
            "list_cursor", "handles to list boundaries, created by reads",
            "segment_progress", "processors' published progress, per replica",
            "query_replica", "the live query replicas",
            "row_history", "versions of rows as they were served, kept by a trigger as live processors write them; "
                    + "a rebuild proven identical leaves every version true",
            "intent_feedback", "feedback reports, computed in the background from the intent tables",
            "intent_feedback_dirty", "the feedback refresher's work queue",
            "knowledge_chunk_embedding", "chunk embeddings, computed in the background from the knowledge chunks",
            "setting_sink", "always empty: the WITH item that carries a write's position stamp inserts nothing into it");

    /**
     * Tables whose handlers find rows by their keys only (unique constraints), so a rebuild fills their copies without
     * the other indexes and builds those after the load, each in one sort.
     */
    public static final Set<String> INDEXED_AFTER_LOAD = Set.of("event_log", "audit_event");

    /**
     * Indexes of other tables that only reads use (list orders), which no handler finds rows by: a rebuild builds them
     * after the load too, instead of changing them with every row it writes.
     */
    public static final Set<String> INDEXES_AFTER_LOAD = Set.of("token_view_created", "token_view_label");

    /** Columns that are by design not derived from events, left out of the digest. */
    public static final Map<String, Set<String>> EXCLUDED_COLUMNS = Map.of();

    private ReadModelTables() {
    }

    public static Projection named(String processor) {
        return PROJECTIONS.get(processor);
    }
}
