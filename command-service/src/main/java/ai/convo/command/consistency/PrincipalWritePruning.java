package ai.convo.command.consistency;

import ai.convo.persistence.Periodic;
import java.time.Duration;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Only a principal's newest recorded write matters to its reads; older rows of {@code principal_write} are deleted
 * now and then. Every command replica does it; the deletes are idempotent.
 */
@Component
public class PrincipalWritePruning extends Periodic {

    /**
     * Every row below its principal's newest. The newest per principal is worked out once (a materialised CTE), so
     * no join order can run that aggregate again for every row: as a plain subquery it became the inner side of a
     * nested loop (statistics of a just-pruned table, whose freed pages new rows refill, say it holds a few rows), and
     * one prune then ran for 16 minutes on a PostgreSQL core while the table grew by 1,000 rows a second.
     */
    public static final String PRUNE = "WITH newest AS MATERIALIZED (SELECT principal_key, max(position) AS newest "
            + "FROM principal_write GROUP BY principal_key) "
            + "DELETE FROM principal_write w USING newest n "
            + "WHERE w.principal_key = n.principal_key AND w.position < n.newest";

    private final JdbcTemplate jdbc;

    // Often, so each run deletes a few seconds' rows rather than a minute's in one burst.
    PrincipalWritePruning(JdbcTemplate jdbc, @Value("${app.consistency.prune-interval:10s}") Duration interval) {
        super("principal-write-pruning", interval);
        this.jdbc = jdbc;
    }

    /** Deletes every row below its principal's newest; answers how many. */
    public int prune() {
        return jdbc.update(PRUNE);
    }

    @Override
    protected void runOnce() {
        prune();
    }
}
