package ai.convo.query.eventlog;

import ai.convo.persistence.BatchingJdbcTemplate;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.postgresql.PGConnection;
import org.springframework.jdbc.core.ConnectionCallback;
import tools.jackson.databind.json.JsonMapper;

/**
 * The event-log and audit rows of one transaction (a rebuild's batch, or a live processor's), loaded as a bulk loader
 * would: each event's position and each request's audit row (the merge EventLogProjection's upsert makes, event by
 * event) computed here, then sent with {@code COPY}. A request whose audit row an earlier transaction wrote goes through
 * the live statement, event by event, so its row is merged where it is. Written at the flush (no other projection
 * reads these tables); a careful batch (dead letters) flushes after each event, so each event loads on its own.
 */
final class EventLogLoad implements BatchingJdbcTemplate.Folded {

    /** One event of the load; the audit fields are null for an event of no actor. */
    record Event(long globalIndex, String organisationId, String id, String projectId, String resourceType,
                 String resourceId, long sequence, String eventType, long occurredAt, String actorId,
                 String correlationId, String auditType, String actionType, String chain,
                 Map<String, Object> payload) {
    }

    /** An audit row as the upserts of its request's events leave it. */
    private static final class Audit {
        String id;
        String organisationId;
        String correlationId;
        long position;
        String type;
        String actionType;
        String userId;
        String projectId;
        String resourceType;
        String resourceId;
        String chain;
        Map<String, Object> payload;
        long occurredAt;
    }

    /** An event's global index not known yet (a live batch's): looked up by its id when the load is written. */
    static final long UNKNOWN_INDEX = -1;

    private final BatchingJdbcTemplate jdbc;
    private final JsonMapper json;
    private final String auditStatement;
    private final List<Event> events = new ArrayList<>();

    EventLogLoad(BatchingJdbcTemplate jdbc, JsonMapper json, String auditStatement) {
        this.jdbc = jdbc;
        this.json = json;
        this.auditStatement = auditStatement;
    }

    void add(Event event) {
        events.add(event);
    }

    @Override
    public boolean beforeOtherStatements() {
        return false;
    }

    @Override
    public void write() {
        if (events.isEmpty()) {
            return;
        }
        List<Event> load = indexed(List.copyOf(events));
        events.clear();
        long[] positions = positions(load);
        Set<List<String>> earlier = auditedEarlier(load);

        StringBuilder log = new StringBuilder(load.size() * 160);
        Map<List<String>, Audit> audits = new LinkedHashMap<>();
        StringBuilder overflow = new StringBuilder();
        List<Object[]> merges = new ArrayList<>();
        for (int i = 0; i < load.size(); i++) {
            Event e = load.get(i);
            long position = positions[i];
            row(log, e.organisationId(), position, e.globalIndex(), e.id(), e.projectId(), e.resourceType(),
                    e.resourceId(), e.sequence(), e.eventType(), e.occurredAt(), e.actorId());
            if (e.actorId() == null) {
                continue;
            }
            List<String> key = List.of(e.organisationId(), e.correlationId());
            if (earlier.contains(key)) {
                // the live statement with this event's position in place of its log row's
                merges.add(new Object[] {position, e.occurredAt() / 1000, e.organisationId(), e.correlationId(),
                        e.auditType(), e.actionType(), e.actorId(), e.projectId(), e.resourceType(), e.resourceId(),
                        e.chain(), json.writeValueAsString(e.payload()), e.occurredAt(), e.eventType(),
                        e.organisationId(), e.correlationId()});
                continue;
            }
            Audit audit = audits.get(key);
            if (audit == null) {
                audits.put(key, inserted(e, position));
            } else if (!merge(audit, e)) {
                row(overflow, e.organisationId(), e.correlationId(), position);
            }
        }
        copy("COPY event_log (organisation_id, position, global_index, id, project_id, resource_type, resource_id, "
                + "sequence_number, event_type, occurred_at, actor_id) FROM STDIN", log);
        if (!audits.isEmpty()) {
            StringBuilder rows = new StringBuilder(audits.size() * 300);
            for (Audit a : audits.values()) {
                row(rows, a.id, a.organisationId, a.correlationId, a.position, a.type, a.actionType, a.userId,
                        a.projectId, a.resourceType, a.resourceId, a.chain, json.writeValueAsString(a.payload),
                        a.occurredAt);
            }
            copy("COPY audit_event (id, organisation_id, correlation_id, position, type, action_type, user_id, "
                    + "project_id, resource_type, resource_id, chain, payload, occurred_at) FROM STDIN", rows);
        }
        copy("COPY audit_event_overflow (organisation_id, correlation_id, position) FROM STDIN", overflow);
        merges.forEach(args -> jdbc.write("WITH l AS (SELECT ?::bigint AS position), " + auditStatement, args));
    }

    /**
     * The events with their global indexes, those a live batch did not know looked up by their ids in one statement.
     * An event that is not in the store fails the load, as the live statement fails on its missing index.
     */
    private List<Event> indexed(List<Event> load) {
        List<String> unknown = new ArrayList<>();
        for (Event e : load) {
            if (e.globalIndex() == UNKNOWN_INDEX) {
                unknown.add(e.id());
            }
        }
        if (unknown.isEmpty()) {
            return load;
        }
        Map<String, Long> indexes = GlobalIndexes.of(jdbc, unknown);
        List<Event> known = new ArrayList<>(load.size());
        for (Event e : load) {
            if (e.globalIndex() != UNKNOWN_INDEX) {
                known.add(e);
                continue;
            }
            Long index = indexes.get(e.id());
            if (index == null) {
                throw new IllegalStateException("Event " + e.id() + " is not in the event store");
            }
            known.add(new Event(index, e.organisationId(), e.id(), e.projectId(), e.resourceType(), e.resourceId(),
                    e.sequence(), e.eventType(), e.occurredAt(), e.actorId(), e.correlationId(), e.auditType(),
                    e.actionType(), e.chain(), e.payload()));
        }
        return known;
    }

    /**
     * Each event's position: the one the live log gave it, else the next of its organisation in the copy (as the
     * live statement decides, in the order of the events).
     */
    private long[] positions(List<Event> load) {
        long low = Long.MAX_VALUE;
        long high = Long.MIN_VALUE;
        for (Event e : load) {
            low = Math.min(low, e.globalIndex());
            high = Math.max(high, e.globalIndex());
        }
        Map<Long, Long> live = new HashMap<>();
        // A rebuild's events are a run of indexes: one range. A live batch may hold one that filled a gap far below.
        if (high - low < 2L * load.size()) {
            jdbc.query("SELECT global_index, position FROM public.event_log WHERE global_index BETWEEN ? AND ?",
                    rs -> {
                        live.put(rs.getLong(1), rs.getLong(2));
                    }, low, high);
        } else {
            jdbc.query("SELECT global_index, position FROM public.event_log WHERE global_index = ANY (?)", rs -> {
                live.put(rs.getLong(1), rs.getLong(2));
            }, (Object) load.stream().map(Event::globalIndex).toArray(Long[]::new));
        }
        Set<String> counted = new HashSet<>();
        for (Event e : load) {
            if (!live.containsKey(e.globalIndex())) {
                counted.add(e.organisationId());
            }
        }
        Map<String, Long> last = new HashMap<>();
        if (!counted.isEmpty()) {
            jdbc.query("SELECT o, coalesce((SELECT max(position) FROM event_log WHERE organisation_id = o), 0) "
                    + "FROM unnest(?::text[]) o", rs -> {
                        last.put(rs.getString(1), rs.getLong(2));
                    }, (Object) counted.toArray(String[]::new));
        }
        long[] positions = new long[load.size()];
        for (int i = 0; i < load.size(); i++) {
            Event e = load.get(i);
            Long known = live.get(e.globalIndex());
            Long before = last.get(e.organisationId());
            long position = known != null ? known : before + 1;
            if (before != null) {
                last.put(e.organisationId(), Math.max(before, position));
            }
            positions[i] = position;
        }
        return positions;
    }

    /** The requests of the load whose audit row is already in the copy (written by an earlier transaction). */
    private Set<List<String>> auditedEarlier(List<Event> load) {
        Set<List<String>> keys = new LinkedHashSet<>();
        for (Event e : load) {
            if (e.actorId() != null) {
                keys.add(List.of(e.organisationId(), e.correlationId()));
            }
        }
        Set<List<String>> found = new HashSet<>();
        if (keys.isEmpty()) {
            return found;
        }
        String[] organisations = new String[keys.size()];
        String[] correlations = new String[keys.size()];
        int i = 0;
        for (List<String> key : keys) {
            organisations[i] = key.get(0);
            correlations[i++] = key.get(1);
        }
        jdbc.query("SELECT a.organisation_id, a.correlation_id FROM unnest(?::text[], ?::text[]) k (o, c) "
                + "JOIN audit_event a ON a.organisation_id = k.o AND a.correlation_id = k.c", rs -> {
                    found.add(List.of(rs.getString(1), rs.getString(2)));
                }, organisations, correlations);
        return found;
    }

    private static Audit inserted(Event e, long position) {
        Audit a = new Audit();
        a.id = lpad(Long.toHexString(e.occurredAt() / 1000), 8) + lpad(Long.toHexString(position), 16);
        a.organisationId = e.organisationId();
        a.correlationId = e.correlationId();
        a.position = position;
        a.type = e.auditType();
        a.actionType = e.actionType();
        a.userId = e.actorId();
        a.projectId = e.projectId();
        a.resourceType = e.resourceType();
        a.resourceId = e.resourceId();
        a.chain = e.chain();
        a.payload = new LinkedHashMap<>(e.payload());
        a.occurredAt = e.occurredAt();
        return a;
    }

    /**
     * The live upsert's ON CONFLICT update, on the row in memory (every condition on the row as it was before the
     * event); false where its WHERE refuses the update (the event is then a row of audit_event_overflow).
     */
    private static boolean merge(Audit a, Event e) {
        boolean sameResource = a.resourceId.equals(e.resourceId());
        boolean named = a.actionType == null && e.actionType() != null;
        if (!sameResource && !named && alsoChanged(a.payload).size() >= EventLogProjection.ALSO_CHANGED_MAX) {
            return false;
        }
        if (sameResource) {
            a.payload.putAll(e.payload());
        } else {
            List<Object> also = new ArrayList<>(alsoChanged(a.payload));
            Map<String, Object> element = new LinkedHashMap<>();
            element.put("elementType", e.resourceType());
            element.put("elementId", e.resourceId());
            element.put("event", e.eventType());
            also.add(element);
            a.payload.put("alsoChanged", also);
        }
        if (named) {
            a.type = e.auditType();
            a.chain = e.chain();
            a.resourceType = e.resourceType();
            a.resourceId = e.resourceId();
        }
        if (a.actionType == null) {
            a.actionType = e.actionType();
        }
        return true;
    }

    private static List<?> alsoChanged(Map<String, Object> payload) {
        Object also = payload.get("alsoChanged");
        if (also == null) {
            return List.of();
        }
        if (also instanceof List<?> list) {
            return list;
        }
        throw new IllegalStateException("An audit payload's alsoChanged is not an array: " + also);
    }

    /** PostgreSQL's lpad(text, n, '0'): padded on the left, or cut to its first n characters. */
    private static String lpad(String text, int length) {
        return text.length() >= length ? text.substring(0, length) : "0".repeat(length - text.length()) + text;
    }

    /** Appends one row in COPY's text format. */
    static void row(StringBuilder out, Object... values) {
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                out.append('\t');
            }
            Object value = values[i];
            if (value == null) {
                out.append("\\N");
            } else if (value instanceof Long number) {
                out.append(number.longValue());
            } else {
                escaped(out, value.toString());
            }
        }
        out.append('\n');
    }

    /** The text with COPY's escapes, appended in runs: most values have nothing to escape. */
    private static void escaped(StringBuilder out, String text) {
        int from = 0;
        for (int c = 0; c < text.length(); c++) {
            String escape = switch (text.charAt(c)) {
                case '\\' -> "\\\\";
                case '\n' -> "\\n";
                case '\r' -> "\\r";
                case '\t' -> "\\t";
                default -> null;
            };
            if (escape != null) {
                out.append(text, from, c).append(escape);
                from = c + 1;
            }
        }
        out.append(text, from, text.length());
    }

    private void copy(String sql, StringBuilder rows) {
        if (rows.isEmpty()) {
            return;
        }
        jdbc.execute((ConnectionCallback<Long>) connection -> {
            try {
                return connection.unwrap(PGConnection.class).getCopyAPI().copyIn(sql, new StringReader(rows.toString()));
            } catch (java.io.IOException e) {
                throw new IllegalStateException(e);
            }
        });
    }
}
