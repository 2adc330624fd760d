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

    private final JdbcTemplate jdbc;

    PrincipalWritePruning(JdbcTemplate jdbc, @Value("${app.consistency.prune-interval:60s}") Duration interval) {
        super("principal-write-pruning", interval);
        this.jdbc = jdbc;
    }

    /** Deletes every row below its principal's newest; answers how many. */
    public int prune() {
        return jdbc.update("DELETE FROM principal_write w USING (SELECT principal_key, max(position) AS newest "
                + "FROM principal_write GROUP BY principal_key) n "
                + "WHERE w.principal_key = n.principal_key AND w.position < n.newest");
    }

    @Override
    protected void runOnce() {
        prune();
    }
}
