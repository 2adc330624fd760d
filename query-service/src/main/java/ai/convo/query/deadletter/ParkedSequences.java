package ai.convo.query.deadletter;

import ai.convo.http.media.Renderer;
import ai.convo.query.consistency.ParkedWrites;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.lang.reflect.RecordComponent;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.TrackedEventMessage;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;
import tools.jackson.databind.JsonNode;

/**
 * The sequences parked now, each by its first event (where it stopped): what read-your-writes asks before it lets a
 * read of a parked organisation through, what the gauge {@code convo.projections.parked.sequences} counts. Read from
 * the table every second ({@link DeadLetterRetrier}); a sequence this replica parks is known from its commit on.
 */
@Component
public class ParkedSequences implements ParkedWrites {

    /** A parked sequence: its first event's organisation (null: none), position (-1: not known) and trace id. */
    public record Parked(String group, String sequenceId, String organisationId, long position, String traceId,
                         String eventIdentifier, String cause) {

        String key() {
            return group + "\n" + sequenceId;
        }
    }

    private record Local(Parked parked, long addedNanos) {
    }

    /** How long a sequence parked here counts although the table, read before it committed, did not show it. */
    private static final long LOCAL_NANOS = 10_000_000_000L;

    private final JdbcTemplate jdbc;
    private final MeterRegistry meters;
    private final Map<String, Local> local = new ConcurrentHashMap<>();
    private volatile List<Parked> stored = List.of();
    /** Until the table was read once, any group may have parked sequences. */
    private volatile boolean loaded;

    public ParkedSequences(JdbcTemplate jdbc, MeterRegistry meters) {
        this.jdbc = jdbc;
        this.meters = meters;
    }

    /** Whether {@code group} may have a parked sequence (true until the table was first read). */
    boolean anyIn(String group) {
        if (!loaded) {
            return true;
        }
        for (Parked p : stored) {
            if (p.group().equals(group)) {
                return true;
            }
        }
        for (Local l : local.values()) {
            if (l.parked().group().equals(group)) {
                return true;
            }
        }
        return false;
    }

    /** Every parked sequence as known now. */
    public List<Parked> all() {
        Map<String, Parked> all = new java.util.LinkedHashMap<>();
        stored.forEach(p -> all.put(p.key(), p));
        local.values().forEach(l -> all.putIfAbsent(l.parked().key(), l.parked()));
        return List.copyOf(all.values());
    }

    /** Empty when nothing is parked (the usual case: no look-up). */
    @Override
    public Optional<Blocking> blocking(String organisationId, long position) {
        if (organisationId == null || (stored.isEmpty() && local.isEmpty())) {
            return Optional.empty();
        }
        return all().stream()
                .filter(p -> organisationId.equals(p.organisationId()) && p.position() <= position)
                .min(java.util.Comparator.comparingLong(Parked::position))
                .map(p -> new Blocking(p.group(), p.traceId(), p.position()));
    }

    void add(Parked parked) {
        local.put(parked.key(), new Local(parked, System.nanoTime()));
    }

    /** The sequence is parked no more (applied, evicted, or rebuilt). */
    public void removed(String group, String sequenceId) {
        local.remove(group + "\n" + sequenceId);
        stored = stored.stream().filter(p -> !(p.group().equals(group) && p.sequenceId().equals(sequenceId))).toList();
    }

    /**
     * Appends to the audit trail of parked sequences ({@code dead_letter_audit}), in the caller's transaction if any:
     * {@code happened} is parked, applied, still-parked, evicted or rebuilt; {@code actor} who asked (null: the
     * service itself).
     */
    void audit(String happened, String group, String sequenceId, String organisationId, String traceId,
               Long position, String detail, String actor) {
        jdbc.update("INSERT INTO dead_letter_audit (happened, processing_group, sequence_identifier, organisation_id, "
                + "trace_id, event_position, detail, actor) VALUES (?, ?, ?, ?, ?, ?, ?, ?)", happened, group, sequenceId,
                organisationId, traceId, position, detail, actor);
    }

    /** Reads the table: each parked sequence by its first letter. */
    void refresh() {
        List<Parked> read = jdbc.query("SELECT d.processing_group, d.sequence_identifier, d.event_identifier, "
                + "d.payload, d.meta_data, d.cause_type, d.cause_message, e.global_index FROM dead_letter_entry d "
                + "LEFT JOIN domain_event_entry e ON e.event_identifier = d.event_identifier "
                + "WHERE d.sequence_index = (SELECT min(f.sequence_index) FROM dead_letter_entry f "
                + "  WHERE f.processing_group = d.processing_group AND f.sequence_identifier = d.sequence_identifier)",
                (rs, i) -> {
                    long position = rs.getLong("global_index");
                    boolean known = !rs.wasNull();
                    byte[] metaData = rs.getBytes("meta_data");
                    String trace = field(metaData, "traceId");
                    trace = trace != null ? trace : field(metaData, "correlationId");
                    return new Parked(rs.getString("processing_group"), rs.getString("sequence_identifier"),
                            field(rs.getBytes("payload"), "organisationId"), known ? position : -1,
                            trace != null ? trace : rs.getString("event_identifier"), rs.getString("event_identifier"),
                            rs.getString("cause_type") + ": " + rs.getString("cause_message"));
                });
        long now = System.nanoTime();
        local.values().removeIf(l -> now - l.addedNanos() > LOCAL_NANOS
                || read.stream().anyMatch(p -> p.key().equals(l.parked().key())));
        stored = read;
        loaded = true;
    }

    Counter counter(String group) {
        Gauge.builder("convo.projections.parked.sequences", this,
                        parked -> parked.all().stream().filter(p -> p.group().equals(group)).count())
                .tag("group", group)
                .description("Sequences of events a projection could not apply, parked until retried or evicted")
                .register(meters);
        return Counter.builder("convo.projections.parked").tag("group", group)
                .description("Sequences parked because a projection could not apply an event")
                .register(meters);
    }

    /** A string field of stored JSON (payload, metadata), or null. */
    static String field(byte[] json, String name) {
        if (json == null) {
            return null;
        }
        try {
            JsonNode node = Renderer.JSON.readTree(json);
            JsonNode value = node == null ? null : node.get(name);
            return value == null || value.isNull() ? null : value.asString();
        } catch (RuntimeException unreadable) {
            return null;
        }
    }

    static Parked of(String group, String sequenceId, EventMessage<?> event, String cause) {
        long position = event instanceof TrackedEventMessage<?> tracked
                ? tracked.trackingToken().position().orElse(-1) : -1;
        Object trace = event.getMetaData().getOrDefault("traceId", event.getMetaData().get("correlationId"));
        return new Parked(group, sequenceId, organisationOf(event.getPayload()), position,
                trace == null ? event.getIdentifier() : trace.toString(), event.getIdentifier(), cause);
    }

    /** Every event but one names its organisation in a record component {@code organisationId}. */
    static String organisationOf(Object payload) {
        if (payload == null || !payload.getClass().isRecord()) {
            return null;
        }
        for (RecordComponent component : payload.getClass().getRecordComponents()) {
            if (component.getName().equals("organisationId")) {
                try {
                    Object value = component.getAccessor().invoke(payload);
                    return value == null ? null : value.toString();
                } catch (ReflectiveOperationException e) {
                    return null;
                }
            }
        }
        return null;
    }
}
