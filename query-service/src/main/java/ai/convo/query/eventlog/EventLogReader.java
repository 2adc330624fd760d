package ai.convo.query.eventlog;

import ai.convo.persistence.upcasting.StoredEvents;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayDeque;
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
 * Reads an organisation's log as JSON lines, straight from the event store over JDBC, and passes a stored payload
 * through as its bytes unless an upcaster changes its shape or it holds a secret field, which is removed.
 * A bulk read goes page by page (keyset on position), each page on a pooled connection of its own that is back in
 * the pool before the page's lines are written: a client that reads slowly or not at all holds no connection and no
 * transaction, only the page it has not taken yet (issue 37).
 */
@Component
class EventLogReader {

    /** One event of the log, rendered. */
    public record Line(long position, byte[] json) {
    }

    /** Rows a bulk read takes per page: as many as the cursor it replaced fetched per round trip. */
    static final int PAGE = 1000;
    /**
     * The pieces a page is handed to the server in. Its writer asks for 128 pieces ahead of the socket, so the
     * size bounds what a stalled client can pin besides its page: 128 x 8 KB = 1 MB.
     */
    private static final int CHUNK_BYTES = 8 * 1024;
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
     * (whole lines, about 8 KB each). Pull-driven: a page is read only when the client has taken the one before.
     */
    public Flux<byte[]> ndjson(LogQuery query) {
        return Flux.<byte[], Pages>generate(() -> new Pages(query), (pages, sink) -> {
                    try {
                        byte[] chunk = pages.next();
                        if (chunk == null) {
                            sink.complete();
                        } else {
                            sink.next(chunk);
                        }
                    } catch (SQLException e) {
                        sink.error(e);
                    }
                    return pages;
                })
                .subscribeOn(Schedulers.boundedElastic());
    }

    /** At most {@code limit} of the query's events, in position order (blocking: call off the event loop). */
    public List<Line> batch(LogQuery query, int limit) throws SQLException {
        List<Line> lines = new ArrayList<>();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        read(query, Long.MAX_VALUE, limit, rows -> {
            out.reset();
            long position = write(rows, out);
            lines.add(new Line(position, out.toByteArray()));
        });
        return lines;
    }

    /** A bulk read's place: the head it reads up to, the last position read, and the rendered page not yet taken. */
    private final class Pages {

        private final LogQuery query;
        private final ArrayDeque<byte[]> chunks = new ArrayDeque<>();
        private long head = -1;
        private long after;
        private boolean done;

        Pages(LogQuery query) {
            this.query = query;
            this.after = query.after();
        }

        byte[] next() throws SQLException {
            while (chunks.isEmpty() && !done) {
                page();
            }
            return chunks.poll();
        }

        private void page() throws SQLException {
            if (head < 0) {
                head = head(query.organisationId());
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream(CHUNK_BYTES + 16 * 1024);
            int rows = read(query.after(after), head, PAGE, row -> {
                after = write(row, out);
                out.write('\n');
                if (out.size() >= CHUNK_BYTES) {
                    chunks.add(out.toByteArray());
                    out.reset();
                }
            });
            if (out.size() > 0) {
                chunks.add(out.toByteArray());
            }
            done = rows < PAGE;
        }
    }

    /** What is done with each row of a page while its connection is held: render it, nothing slower. */
    @FunctionalInterface
    private interface RowHandler {
        void row(ResultSet rows) throws SQLException;
    }

    /** The organisation's newest position (0 for none): positions up to it are all committed (they commit in order). */
    private long head(String organisationId) throws SQLException {
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = connection.prepareStatement(
                     "SELECT coalesce(max(position), 0) FROM event_log WHERE organisation_id = ?")) {
            statement.setString(1, organisationId);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    /**
     * One page: at most {@code limit} of the query's rows after its position, up to {@code head}, in one statement on
     * a connection that goes back to the pool when the page has been rendered; answers how many rows it had.
     */
    private int read(LogQuery query, long head, int limit, RowHandler handler) throws SQLException {
        List<Object> binds = new ArrayList<>();
        String sql = sql(query, head, limit, binds);
        int count = 0;
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < binds.size(); i++) {
                statement.setObject(i + 1, binds.get(i));
            }
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    handler.row(rows);
                    count++;
                }
            }
        }
        return count;
    }

    private String sql(LogQuery query, long head, int limit, List<Object> binds) {
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
        if (head < Long.MAX_VALUE) {
            sql.append(" AND l.position <= ?");
            binds.add(head);
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
        sql.append(" ORDER BY l.position LIMIT ").append(limit);
        return sql.toString();
    }

    /** Renders the current row as one JSON line (no newline); answers its position. */
    private long write(ResultSet rows, ByteArrayOutputStream line) throws SQLException {
        long position = rows.getLong(1);
        String storedType = rows.getString(9);
        String revision = rows.getString(10);
        byte[] payload = rows.getBytes(11);
        String type = rows.getString(6);
        if (upcasting) {
            IntermediateEventRepresentation upcast = upcast(rows, storedType, revision, payload);
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
    private IntermediateEventRepresentation upcast(ResultSet rows, String type, String revision, byte[] payload)
            throws SQLException {
        List<IntermediateEventRepresentation> upcast = storedEvents.current(StoredEvents.row(
                rows.getString("aggregate_type"), rows.getString("aggregate_identifier"), rows.getLong(5),
                rows.getString(2), rows.getString(8), type, revision, payload, rows.getBytes("meta_data")));
        return upcast.isEmpty() ? null : upcast.get(0);
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
