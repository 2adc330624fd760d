package ai.convo.testing;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import javax.sql.DataSource;

/**
 * Events written straight into domain_event_entry, as an older release stored them: the way to test that an event
 * stored in an older shape still loads, on every path that reads the store (aggregates, processors, the event log,
 * the history, a rebuild). The payload is the old JSON exactly, with the old revision (null for events stored before
 * their type had one); the global index comes from the table's sequence, as Axon's appends take it.
 */
public final class RawEvents {

    /** FunctionUpdatedEvent, whose revision 1 (stored with no revision) called isDisabled {@code disabled}. */
    public static final String FUNCTION_UPDATED = "ai.convo.contract.function.FunctionUpdatedEvent";

    private RawEvents() {
    }

    /** The JSON of a FunctionUpdatedEvent at revision 1, field for field as that release's record wrote it. */
    public static String functionUpdatedRevision1(String functionId, String projectId, String organisationId,
                                                  List<String> changedFields, String name, String code,
                                                  boolean disabled, String changedBy, long changedAt) {
        return "{\"functionId\":" + quote(functionId) + ",\"projectId\":" + quote(projectId)
                + ",\"organisationId\":" + quote(organisationId) + ",\"changedFields\":["
                + changedFields.stream().map(RawEvents::quote).collect(Collectors.joining(",")) + "],\"name\":"
                + quote(name) + ",\"code\":" + quote(code) + ",\"disabled\":" + disabled + ",\"changedBy\":"
                + quote(changedBy) + ",\"changedAt\":" + changedAt + "}";
    }

    /**
     * Appends a FunctionUpdatedEvent in its revision-1 shape to the function's stream (the next sequence number)
     * and answers its global index.
     */
    public static long appendFunctionUpdatedRevision1(DataSource dataSource, String functionId, String projectId,
                                                      String organisationId, List<String> changedFields, String name,
                                                      String code, boolean disabled, String changedBy,
                                                      long changedAt) {
        return append(dataSource, "FunctionAggregate", functionId, FUNCTION_UPDATED, null,
                functionUpdatedRevision1(functionId, projectId, organisationId, changedFields, name, code, disabled,
                        changedBy, changedAt));
    }

    /**
     * Appends one event raw: the next sequence number of the aggregate, a new event id, now as its timestamp, no
     * metadata, the given payload type, revision (null: none) and JSON. Answers its global index.
     */
    public static long append(DataSource dataSource, String aggregateType, String aggregateId, String payloadType,
                              String payloadRevision, String payloadJson) {
        return append(dataSource, aggregateType, aggregateId, payloadType, payloadRevision, payloadJson, "{}");
    }

    /** As above, with this metadata JSON (e.g. the traceId of the request that wrote it). */
    public static long append(DataSource dataSource, String aggregateType, String aggregateId, String payloadType,
                              String payloadRevision, String payloadJson, String metaDataJson) {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement insert = connection.prepareStatement("INSERT INTO domain_event_entry "
                     + "(event_identifier, aggregate_identifier, sequence_number, type, time_stamp, payload_type, "
                     + "payload_revision, payload, meta_data) SELECT ?, ?, coalesce(max(sequence_number) + 1, 0), ?, ?, "
                     + "?, ?, ?, ? FROM domain_event_entry WHERE aggregate_identifier = ? RETURNING global_index")) {
            insert.setString(1, UUID.randomUUID().toString());
            insert.setString(2, aggregateId);
            insert.setString(3, aggregateType);
            insert.setString(4, Instant.now().toString());
            insert.setString(5, payloadType);
            insert.setString(6, payloadRevision);
            insert.setBytes(7, payloadJson.getBytes(StandardCharsets.UTF_8));
            insert.setBytes(8, metaDataJson.getBytes(StandardCharsets.UTF_8));
            insert.setString(9, aggregateId);
            try (ResultSet row = insert.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        } catch (SQLException e) {
            throw new IllegalStateException("Could not append a raw event of " + aggregateId, e);
        }
    }

    private static String quote(String value) {
        if (value == null) {
            return "null";
        }
        StringBuilder quoted = new StringBuilder("\"");
        for (char c : value.toCharArray()) {
            switch (c) {
                case '"' -> quoted.append("\\\"");
                case '\\' -> quoted.append("\\\\");
                case '\n' -> quoted.append("\\n");
                case '\r' -> quoted.append("\\r");
                case '\t' -> quoted.append("\\t");
                default -> {
                    if (c < 0x20) {
                        quoted.append(String.format("\\u%04x", (int) c));
                    } else {
                        quoted.append(c);
                    }
                }
            }
        }
        return quoted.append('"').toString();
    }
}
