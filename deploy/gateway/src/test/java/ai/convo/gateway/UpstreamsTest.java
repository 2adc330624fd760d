package ai.convo.gateway;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;

import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class UpstreamsTest {

    private final Upstreams upstreams = new Upstreams(Map.of("query", List.of(URI.create("http://a"),
            URI.create("http://b"), URI.create("http://c"))), Map.of("query", "/new/health/ready"));
    private final Upstreams.Pool pool = upstreams.pool("query");
    private final Upstreams.Instance a = pool.instances().get(0);
    private final Upstreams.Instance b = pool.instances().get(1);
    private final Upstreams.Instance c = pool.instances().get(2);

    @Test
    void givenARequestThatFailedOnOneReplica_whenItIsRetried_thenItNeverMeetsThatReplicaAgain() {
        // other requests move the round robin between the attempts of one request: whatever its position, ...
        for (int i = 0; i < 12; i++) {
            pool.choose();
            assertNotSame(a, pool.choose(Set.of(a)));
        }
        // ... and with two tried, the third is the one left
        assertEquals(c, pool.choose(Set.of(a, b)));
    }

    @Test
    void givenTheOnlyUntriedReplicaIsUnhealthy_whenChosen_thenItIsStillTriedBeforeATriedOne() {
        c.healthy = false;

        assertEquals(c, pool.choose(Set.of(a, b)));
    }

    @Test
    void givenEveryReplicaTried_whenChosen_thenOneIsStillReturned() {
        assertEquals(3, Set.of(pool.choose(Set.of(a, b, c)), pool.choose(Set.of(a, b, c)),
                pool.choose(Set.of(a, b, c))).size());
    }
}
