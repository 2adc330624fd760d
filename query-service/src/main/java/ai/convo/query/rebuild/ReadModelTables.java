package ai.convo.query.rebuild;

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

    public static final Map<String, Projection> PROJECTIONS;

    static {
        Map<String, Projection> all = new LinkedHashMap<>();
        for (Projection p : List.of(
                new Projection("projects", List.of("project_view"), List.of()),
                new Projection("locales", List.of("locale_view"), List.of()),
                new Projection("tokens", List.of("token_view"), List.of()),
                new Projection("functions", List.of("function_view", "function_project"), List.of()),
                new Projection("function-instances", List.of("function_instance_view"), List.of()),
                new Projection("flows", List.of("flow_view"), List.of()),
                new Projection("states", List.of("state_view"), List.of()),
                new Projection("intents", List.of("intent_flow_view", "intent_view", "sentence_view",
                        "intent_sentence_count"), List.of("intent_feedback", "intent_feedback_dirty")),
                new Projection("knowledge", List.of("knowledge_store_view", "knowledge_source_view",
                        "knowledge_project"), List.of()),
                new Projection("snapshots", List.of("snapshot_view", "snapshot_resource_view"), List.of()),
                new Projection("tasks", List.of("task_view"), List.of()),
                new Projection("system-messages", List.of("system_message_view"), List.of()),
                new Projection("voice-assistant-links", List.of("voice_assistant_link_view"), List.of()),
                new Projection("login-attempts", List.of("login_attempt_view"), List.of()),
                new Projection("callcounter", List.of("call_counter_day", "call_counter_minute", "call_counter_batch"),
                        List.of()),
                new Projection("eventlog", List.of("event_log", "audit_event", "audit_event_overflow"), List.of()))) {
            all.put(p.processor(), p);
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
            "intent_feedback_dirty", "the feedback refresher's work queue");

    /** Columns that are by design not derived from events, left out of the digest. */
    public static final Map<String, Set<String>> EXCLUDED_COLUMNS = Map.of();

    private ReadModelTables() {
    }

    public static Projection named(String processor) {
        return PROJECTIONS.get(processor);
    }
}
