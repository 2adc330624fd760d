package ai.convo.query.eventlog;

import ai.convo.persistence.upcasting.StoredEvents;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.axonframework.serialization.upcasting.event.IntermediateEventRepresentation;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.scheduler.Schedulers;
import tools.jackson.core.io.JsonStringEncoder;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

/**
 * Reads an organisation's log as JSON lines, straight from the event store over JDBC: a bulk read is one cursor
 * (rows fetched a thousand at a time, only as fast as the client takes them), and a stored payload is passed
 * through as its bytes unless an upcaster changes its shape or it holds a secret field, which is removed.
 */
@Component
public class EventLogReader {

    /** One event of the log, rendered. */
    public record Line(long position, byte[] json) {
    }

    private static final int FETCH = 1000;
    private static final int CHUNK_BYTES = 64 * 1024;
    private static final JsonMapper JSON = JsonMapper.builder().build();
    private static final byte[] NULL = "null".getBytes(StandardCharsets.US_ASCII);

    private final DataSource dataSource;
    private final StoredEvents storedEvents;
    private final boolean upcasting;

    public EventLogReader(DataSource dataSource, StoredEvents storedEvents) {
        this.dataSource = dataSource;
        this.storedEvents = storedEvents;
        this.upcasting = storedEvents.upcasting();
    }

    /**
     * The query's events up to the organisation's newest position when the read starts, as chunks of NDJSON
     * (whole lines, about 64 KB each). Pull-driven: the cursor moves only when the client has taken a chunk.
     */
    public Flux<byte[]> ndjson(LogQuery query) {
        return Flux.<byte[], Cursor>generate(() -> new Cursor(query, true, 0), (cursor, sink) -> {
                    try {
                        byte[] chunk = cursor.chunk();
                        if (chunk == null) {
                            sink.complete();
                        } else {
                            sink.next(chunk);
                        }
                    } catch (SQLException e) {
                        sink.error(e);
                    }
                    return cursor;
                }, Cursor::close)
                .subscribeOn(Schedulers.boundedElastic());
    }

    /** At most {@code limit} of the query's events, in position order (blocking: call off the event loop). */
    public List<Line> batch(LogQuery query, int limit) throws SQLException {
        List<Line> lines = new ArrayList<>();
        try (Cursor cursor = new Cursor(query, false, limit)) {
            Line line;
            while ((line = cursor.next()) != null) {
                lines.add(line);
            }
        }
        return lines;
    }

    private String sql(LogQuery query, boolean toHead, int limit, List<Object> binds) {
        StringBuilder sql = new StringBuilder("SELECT l.position, l.id, l.resource_type, l.resource_id, "
                + "l.sequence_number, l.event_type, l.actor_id, e.time_stamp, e.payload_type, e.payload_revision, "
                + "e.payload");
        if (upcasting) {
            sql.append(", e.type AS aggregate_type, e.aggregate_identifier, e.meta_data");
        }
        sql.append(" FROM event_log l JOIN domain_event_entry e ON e.global_index = l.global_index "
                + "WHERE l.organisation_id = ? AND l.position > ?");
        binds.add(query.organisationId());
        binds.add(query.after());
        if (toHead) {
            sql.append(" AND l.position <= (SELECT max(position) FROM event_log WHERE organisation_id = ?)");
            binds.add(query.organisationId());
        }
        if (query.sinceMillis() != null) {
            sql.append(" AND l.occurred_at >= ?");
            binds.add(query.sinceMillis());
        }
        if (query.projectId() != null) {
            sql.append(" AND l.project_id = ?");
            binds.add(query.projectId());
        }
        if (query.resourceType() != null) {
            sql.append(" AND l.resource_type = ?");
            binds.add(query.resourceType());
        }
        if (query.resourceId() != null) {
            sql.append(" AND l.resource_id = ?");
            binds.add(query.resourceId());
        }
        if (query.eventType() != null) {
            sql.append(" AND l.event_type = ?");
            binds.add(query.eventType());
        }
        sql.append(" ORDER BY l.position");
        if (limit > 0) {
            sql.append(" LIMIT ").append(limit);
        }
        return sql.toString();
    }

    /** An open JDBC cursor over the query (a transaction of its own, so PostgreSQL fetches in portions). */
    private final class Cursor implements AutoCloseable {

        private final Connection connection;
        private final PreparedStatement statement;
        private final ResultSet rows;
        private final ByteArrayOutputStream out = new ByteArrayOutputStream(CHUNK_BYTES + 8192);

        Cursor(LogQuery query, boolean toHead, int limit) throws SQLException {
            List<Object> binds = new ArrayList<>();
            String sql = sql(query, toHead, limit, binds);
            connection = dataSource.getConnection();
            try {
                connection.setAutoCommit(false);
                connection.setReadOnly(true);
                statement = connection.prepareStatement(sql);
                statement.setFetchSize(FETCH);
                for (int i = 0; i < binds.size(); i++) {
                    statement.setObject(i + 1, binds.get(i));
                }
                rows = statement.executeQuery();
            } catch (SQLException | RuntimeException e) {
                release();
                throw e;
            }
        }

        /** Whole lines up to about 64 KB, or null at the end. */
        byte[] chunk() throws SQLException {
            out.reset();
            while (out.size() < CHUNK_BYTES && rows.next()) {
                write(out);
                out.write('\n');
            }
            return out.size() == 0 ? null : out.toByteArray();
        }

        Line next() throws SQLException {
            if (!rows.next()) {
                return null;
            }
            out.reset();
            long position = write(out);
            return new Line(position, out.toByteArray());
        }

        private long write(ByteArrayOutputStream line) throws SQLException {
            long position = rows.getLong(1);
            String storedType = rows.getString(9);
            String revision = rows.getString(10);
            byte[] payload = rows.getBytes(11);
            String type = rows.getString(6);
            if (upcasting) {
                IntermediateEventRepresentation upcast = upcast(storedType, revision, payload);
                if (upcast != null) {
                    payload = upcast.getData(byte[].class).getData();
                    storedType = upcast.getType().getName();
                    type = EventFacts.typeName(storedType);
                }
            }
            if (EventFacts.TYPES_WITH_SECRETS.contains(storedType)) {
                payload = withoutSecrets(payload);
            }
            ascii(line, "{\"position\":");
            ascii(line, Long.toString(position));
            ascii(line, ",\"eventId\":");
            string(line, rows.getString(2));
            ascii(line, ",\"resourceType\":");
            string(line, rows.getString(3));
            ascii(line, ",\"resourceId\":");
            string(line, rows.getString(4));
            ascii(line, ",\"sequenceNumber\":");
            ascii(line, Long.toString(rows.getLong(5)));
            ascii(line, ",\"type\":");
            string(line, type);
            ascii(line, ",\"timestamp\":");
            string(line, rows.getString(8));
            ascii(line, ",\"actor\":");
            string(line, rows.getString(7));
            ascii(line, ",\"payload\":");
            line.writeBytes(payload);
            line.write('}');
            return position;
        }

        /** The event in its current shape (the first, should an upcaster split it), or null if one dropped it. */
        private IntermediateEventRepresentation upcast(String type, String revision, byte[] payload) throws SQLException {
            List<IntermediateEventRepresentation> upcast = storedEvents.current(StoredEvents.row(
                    rows.getString("aggregate_type"), rows.getString("aggregate_identifier"), rows.getLong(5),
                    rows.getString(2), rows.getString(8), type, revision, payload, rows.getBytes("meta_data")));
            return upcast.isEmpty() ? null : upcast.get(0);
        }

        @Override
        public void close() {
            release();
        }

        private void release() {
            try {
                connection.rollback();
                connection.setReadOnly(false);
                connection.setAutoCommit(true);
            } catch (SQLException | RuntimeException ignored) {
                // the connection goes back to the pool, which checks it
            }
            try {
                connection.close();
            } catch (SQLException ignored) {
                // nothing left to release
            }
        }
    }

    private static byte[] withoutSecrets(byte[] payload) {
        ObjectNode node = (ObjectNode) JSON.readTree(payload);
        EventFacts.SECRET_FIELDS.forEach(node::remove);
        return JSON.writeValueAsBytes(node);
    }

    private static void ascii(ByteArrayOutputStream out, String text) {
        out.writeBytes(text.getBytes(StandardCharsets.US_ASCII));
    }

    private static void string(ByteArrayOutputStream out, String value) {
        if (value == null) {
            out.writeBytes(NULL);
            return;
        }
        out.write('"');
        out.writeBytes(JsonStringEncoder.getInstance().quoteAsUTF8(value));
        out.write('"');
    }
}
