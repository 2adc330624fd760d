package ai.convo.query.eventlog;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The global indexes of stored events by their ids, in one statement: a tracking token's position is the furthest
 * index its stream has seen, which for an event that fills a gap is another event's.
 */
final class GlobalIndexes {

    private GlobalIndexes() {
    }

    /** The events' indexes by id; an id not in the store is absent. */
    static Map<String, Long> of(JdbcTemplate jdbc, Collection<String> ids) {
        Map<String, Long> indexes = new HashMap<>();
        jdbc.query("SELECT event_identifier, global_index FROM domain_event_entry WHERE event_identifier = ANY (?)",
                rs -> {
                    indexes.put(rs.getString(1), rs.getLong(2));
                }, (Object) ids.toArray(String[]::new));
        return indexes;
    }
}
