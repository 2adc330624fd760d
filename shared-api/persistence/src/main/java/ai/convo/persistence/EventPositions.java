package ai.convo.persistence;

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

    public Long latestOf(List<String> aggregateIds) {
        if (aggregateIds.isEmpty()) {
            return null;
        }
        String placeholders = String.join(",", java.util.Collections.nCopies(aggregateIds.size(), "?"));
        return jdbc.queryForObject("SELECT max(global_index) FROM domain_event_entry WHERE aggregate_identifier IN ("
                + placeholders + ")", Long.class, aggregateIds.toArray());
    }
}
