package ai.convo.launcher.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two query replicas share the projection work (segments spread over both), and when one is killed the other takes
 * its segments over within the claim timeout. Prints how long spreading and taking over took.
 */
class QueryReplicasIT {

    private static Stack stack;

    @BeforeAll
    static void start() throws Exception {
        stack = new Stack(1, 2, 1);
    }

    @AfterAll
    static void stop() {
        if (stack != null) {
            stack.close();
        }
    }

    /** Segments of the query projections per owning process id. */
    private static Map<Long, Integer> owners() throws Exception {
        Map<Long, Integer> owners = new HashMap<>();
        long command = stack.commands.get(0).pid();
        try (Connection c = DriverManager.getConnection(stack.db.jdbcUrl(), stack.db.username(), stack.db.password());
             Statement s = c.createStatement();
             ResultSet rows = s.executeQuery("SELECT owner FROM token_entry")) {
            while (rows.next()) {
                String owner = rows.getString(1);
                long pid = owner == null ? -1 : Long.parseLong(owner.substring(0, owner.indexOf('@')));
                if (pid != command) {
                    owners.merge(pid, 1, Integer::sum);
                }
            }
        }
        return owners;
    }

    private static long until(java.util.function.Predicate<Map<Long, Integer>> done, Duration bound) throws Exception {
        long started = System.nanoTime();
        while (!done.test(owners())) {
            if (System.nanoTime() - started > bound.toNanos()) {
                throw new AssertionError("not within " + bound + ": owners " + owners());
            }
            Thread.sleep(100); // checking the token store ten times a second, up to the bound
        }
        return (System.nanoTime() - started) / 1_000_000;
    }

    @Test
    void theReplicasShareTheSegmentsAndASurvivorTakesOverAKilledOnesWithinTheClaimTimeout() throws Exception {
        long first = stack.queries.get(0).pid();
        long second = stack.queries.get(1).pid();

        // given both replicas run, each ends up holding a share of the segments
        long spread = until(owners -> owners.getOrDefault(first, 0) > 0 && owners.getOrDefault(second, 0) > 0,
                Duration.ofSeconds(30));
        Map<Long, Integer> shared = owners();

        // when one is killed, the other holds every segment soon after
        stack.queries.get(1).kill();
        long takeOver = until(owners -> owners.size() == 1 && owners.containsKey(first), Duration.ofSeconds(15));

        System.out.printf("query replicas: segments shared %s after %d ms; replica killed, all taken over in %d ms%n",
                shared, spread, takeOver);
        assertThat(takeOver).as("take-over ms").isLessThan(10_000);
    }
}
