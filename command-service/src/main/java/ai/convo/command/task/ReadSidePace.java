package ai.convo.command.task;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.List;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Lets a large write go only as fast as the projections take it in (issue 37). Every read after a write waits until
 * every projection passed the write's position, so a task that appended 60,000 events at once made every other
 * organisation's reads wait for all of them. A task that writes in parts waits here, before the next, until every live
 * processor segment (of any service, as their stored tokens say) is close enough behind its last part: another
 * organisation's write then has at most that much of it in front.
 * <p>
 * Pacing is a courtesy, never a dependency: a segment whose owner stopped extending its claim is not waited for, and
 * when no live segment moves for {@code stall}, the task goes on unpaced (the read side is down or stuck; catching up
 * is then its own business).
 */
@Component
public class ReadSidePace {

    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(ReadSidePace.class);
    /** A claim is extended every few hundred ms while its owner lives; Axon takes over one untouched for 10 s. */
    private static final Duration LIVE_CLAIM = Duration.ofSeconds(10);
    private static final long POLL_MILLIS = 20;

    private final JdbcTemplate jdbc;
    private final Duration stall;

    public ReadSidePace(JdbcTemplate jdbc, @Value("${app.tasks.pace-stall:5s}") Duration stall) {
        this.jdbc = jdbc;
        this.stall = stall;
    }

    /** One pacing run: once the read side stalled, it stays unpaced (one log line, not one per part). */
    public Run start() {
        return new Run();
    }

    public final class Run {

        private boolean unpaced;

        private Run() {
        }

        /**
         * Returns once every live segment has processed {@code position} (true), or when none moved for the stall
         * time (false, and from then on at once).
         */
        public boolean awaitProjected(long position) throws InterruptedException {
            long lowest = -1;
            long movedAt = System.nanoTime();
            while (!unpaced) {
                long now;
                try {
                    now = lowestLive();
                } catch (org.springframework.dao.DataAccessException e) {
                    unpaced = true;
                    log.warn("The projections' progress cannot be read ({}); the task goes on without waiting for "
                            + "them", e.getMessage());
                    return false;
                }
                if (now >= position) {
                    return true;
                }
                if (now > lowest) {
                    lowest = now;
                    movedAt = System.nanoTime();
                } else if (System.nanoTime() - movedAt > stall.toNanos()) {
                    unpaced = true;
                    log.warn("The projections did not move for {} ms at position {} (waiting for {}); the task goes "
                            + "on without waiting for them", stall.toMillis(), lowest, position);
                    return false;
                }
                Thread.sleep(POLL_MILLIS);
            }
            return false;
        }
    }

    /** The lowest position every live segment has processed; Long.MAX_VALUE when none is live. */
    long lowestLive() {
        Instant live = Instant.now().minus(LIVE_CLAIM);
        // stored tokens are JSON; a replaying segment has processed what its currentToken covers
        List<Long> processed = jdbc.query("SELECT time_stamp, COALESCE((j->>'index')::bigint, "
                        + "(j->'currentToken'->>'index')::bigint, -1) AS idx FROM (SELECT time_stamp, "
                        + "convert_from(token, 'UTF8')::jsonb AS j FROM token_entry "
                        + "WHERE owner IS NOT NULL AND token IS NOT NULL) t",
                (row, i) -> claimedSince(row.getString("time_stamp"), live) ? row.getLong("idx") : null);
        return processed.stream().filter(java.util.Objects::nonNull).mapToLong(Long::longValue).min()
                .orElse(Long.MAX_VALUE);
    }

    private static boolean claimedSince(String stamp, Instant live) {
        try {
            return stamp != null && Instant.parse(stamp).isAfter(live);
        } catch (DateTimeParseException e) {
            return false;
        }
    }
}
