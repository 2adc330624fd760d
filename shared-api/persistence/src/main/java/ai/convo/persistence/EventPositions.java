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

    /**
     * Each aggregate's newest event, by one backward step on its (aggregate, sequence) index, one statement per
     * aggregate (almost always one). Neither max() over an IN list nor over an unnested array: PostgreSQL planned those
     * anew on every execution (a plan for unknown ids or an unknown count is costlier than the custom one, so it never
     * kept one), and the planning cost more than the command's own append.
     */
    public Long latestOf(List<String> aggregateIds) {
        Long latest = null;
        for (String aggregateId : aggregateIds) {
            List<Long> found = jdbc.queryForList(LATEST, Long.class, aggregateId);
            if (!found.isEmpty() && (latest == null || found.get(0) > latest)) {
                latest = found.get(0);
            }
        }
        return latest;
    }

    static final String LATEST = "SELECT global_index FROM domain_event_entry WHERE aggregate_identifier = ? "
            + "ORDER BY sequence_number DESC LIMIT 1";
}
