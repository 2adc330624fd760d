package ai.convo.persistence;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * The global position of the newest event of some aggregates, read after a command committed. A client sends
 * it back to the query service to read its own write.
 */
@Component
public class EventPositions {

    private final JdbcTemplate jdbc;

    public EventPositions(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    /**
     * The newest event of the aggregates, by one backward step on the (aggregate, sequence) index per aggregate.
     * Not max() over an IN list: PostgreSQL planned that anew on every execution (its plan for unknown ids scans the
     * whole log backwards, so it never kept one), and the planning cost more than the command's own append. One
     * aggregate, almost every command, takes a statement whose plan PostgreSQL keeps; several take one statement.
     */
    public Long latestOf(List<String> aggregateIds) {
        if (aggregateIds.isEmpty()) {
            return null;
        }
        if (aggregateIds.size() == 1) {
            List<Long> found = jdbc.queryForList(LATEST_OF_ONE, Long.class, aggregateIds.get(0));
            return found.isEmpty() ? null : found.get(0);
        }
        return jdbc.query(connection -> {
            PreparedStatement statement = connection.prepareStatement(LATEST_OF_MANY);
            statement.setArray(1, connection.createArrayOf("text", aggregateIds.toArray()));
            return statement;
        }, (ResultSet rows) -> rows.next() ? rows.getObject(1, Long.class) : null);
    }

    static final String LATEST_OF_ONE = "SELECT global_index FROM domain_event_entry WHERE aggregate_identifier = ? "
            + "ORDER BY sequence_number DESC LIMIT 1";
    static final String LATEST_OF_MANY = "SELECT max(x.global_index) FROM unnest(CAST(? AS text[])) AS a(id) "
            + "CROSS JOIN LATERAL (SELECT e.global_index FROM domain_event_entry e WHERE e.aggregate_identifier = a.id "
            + "ORDER BY e.sequence_number DESC LIMIT 1) x";
}
