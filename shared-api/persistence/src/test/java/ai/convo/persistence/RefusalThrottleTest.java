package ai.convo.persistence;

import static org.assertj.core.api.Assertions.assertThat;

import ai.convo.http.audit.Refusal;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** One row per source per window counting what it held back, a cap on sources and on rows a second. */
class RefusalThrottleTest {

    private static final long WINDOW = 10_000;

    private final AtomicLong now = new AtomicLong(1_700_000_000_000L);

    private RefusalThrottle throttle(int maxSources, int maxRowsPerSecond) {
        return new RefusalThrottle(now::get, WINDOW, maxSources, maxRowsPerSecond);
    }

    private Refusal wrongKey(String address) {
        return new Refusal(null, null, null, "GET", "/new/v2.0/flows", 401, "API_KEY_HEADER", address, now.get());
    }

    private Refusal forbidden(String address, String organisation) {
        return new Refusal(organisation, "u", "m@example.com", "GET", "/new/v2.0/auditevents", 403, "API_KEY_HEADER",
                address, now.get());
    }

    @Test
    void aFloodFromOneSourceIsOneRowPerWindowCountingWhatItHeldBack() {
        RefusalThrottle throttle = throttle(100, 50);

        RefusalThrottle.Row first = throttle.offer(wrongKey("10.0.0.1"));
        assertThat(first.repeated()).isZero();
        for (int i = 0; i < 99; i++) {
            now.addAndGet(10);
            assertThat(throttle.offer(wrongKey("10.0.0.1"))).isNull();
        }
        now.set(first.refusal().occurredAtMillis() + WINDOW - 1);
        assertThat(throttle.offer(wrongKey("10.0.0.1"))).isNull();

        now.set(first.refusal().occurredAtMillis() + WINDOW);
        RefusalThrottle.Row second = throttle.offer(wrongKey("10.0.0.1"));
        assertThat(second.repeated()).isEqualTo(100);
        assertThat(second.refusal().occurredAtMillis()).isEqualTo(now.get());
        // A new window has begun with that row.
        assertThat(throttle.offer(wrongKey("10.0.0.1"))).isNull();
    }

    @Test
    void sourcesAreTheAddressTheStatusAndTheOrganisationOrEmailOrScheme() {
        RefusalThrottle throttle = throttle(100, 50);

        assertThat(throttle.offer(wrongKey("10.0.0.1"))).isNotNull();
        assertThat(throttle.offer(wrongKey("10.0.0.2"))).isNotNull();
        assertThat(throttle.offer(forbidden("10.0.0.1", "org-a"))).isNotNull();
        assertThat(throttle.offer(forbidden("10.0.0.1", "org-b"))).isNotNull();
        assertThat(throttle.offer(new Refusal(null, null, "a@example.com", "GET", "/x", 401, "BASIC", "10.0.0.1",
                now.get()))).isNotNull();
        assertThat(throttle.offer(new Refusal(null, null, null, "GET", "/x", 401, null, "10.0.0.1",
                now.get()))).isNotNull();

        assertThat(throttle.offer(forbidden("10.0.0.1", "org-a"))).isNull();
        assertThat(throttle.offer(wrongKey("10.0.0.2"))).isNull();
    }

    @Test
    void theEndOfAFloodIsCountedOnceItsWindowIsOverWithoutAnotherRefusal() {
        RefusalThrottle throttle = throttle(100, 50);
        throttle.offer(wrongKey("10.0.0.1"));
        for (int i = 0; i < 5; i++) {
            now.addAndGet(100);
            throttle.offer(wrongKey("10.0.0.1"));
        }
        long lastAt = now.get();
        assertThat(throttle.due(false)).isEmpty();

        now.addAndGet(WINDOW);
        List<RefusalThrottle.Row> due = throttle.due(false);

        // The last refusal held back, standing for itself and the four before it.
        assertThat(due).singleElement().satisfies(row -> {
            assertThat(row.repeated()).isEqualTo(4);
            assertThat(row.refusal().occurredAtMillis()).isEqualTo(lastAt);
        });
        assertThat(throttle.due(false)).isEmpty();
        assertThat(throttle.offer(wrongKey("10.0.0.1"))).isNull();
    }

    @Test
    void aFlushWritesWhatIsHeldBackWhateverTheWindow() {
        RefusalThrottle throttle = throttle(100, 50);
        throttle.offer(wrongKey("10.0.0.1"));
        throttle.offer(wrongKey("10.0.0.1"));
        throttle.offer(wrongKey("10.0.0.1"));
        throttle.offer(wrongKey("10.0.0.2"));

        assertThat(throttle.due(true)).extracting(RefusalThrottle.Row::repeated).containsExactly(1);
        assertThat(throttle.due(true)).isEmpty();
    }

    @Test
    void quietSourcesAreForgotten() {
        RefusalThrottle throttle = throttle(100, 50);
        throttle.offer(wrongKey("10.0.0.1"));
        now.addAndGet(WINDOW);

        assertThat(throttle.due(false)).isEmpty();

        // Forgotten: a refusal now is a first row again, not the end of a window.
        assertThat(throttle.offer(wrongKey("10.0.0.1")).repeated()).isZero();
    }

    @Test
    void beyondTheRowsOfASecondRefusalsAreHeldBackForTheirSourcesNextRow() {
        RefusalThrottle throttle = throttle(1000, 50);

        int rows = 0;
        for (int i = 0; i < 80; i++) {
            if (throttle.offer(wrongKey("10.0.1." + i)) != null) {
                rows++;
            }
        }
        assertThat(rows).isEqualTo(50);

        // Next second: the 30 held back are each written once, as the refusal they were.
        now.addAndGet(1000);
        List<RefusalThrottle.Row> due = throttle.due(false);
        assertThat(due).hasSize(30).allSatisfy(row -> assertThat(row.repeated()).isZero());
        assertThat(due).extracting(row -> row.refusal().remoteAddress()).contains("10.0.1.50", "10.0.1.79");
    }

    @Test
    void theCapOnRowsASecondAlsoHoldsForTheSweep() {
        RefusalThrottle throttle = throttle(1000, 50);
        for (int i = 0; i < 120; i++) {
            throttle.offer(wrongKey("10.0.2." + i));
        }
        now.addAndGet(1000);

        assertThat(throttle.due(true)).hasSize(50);
        now.addAndGet(1000);
        assertThat(throttle.due(true)).hasSize(20);
        assertThat(throttle.due(true)).isEmpty();
    }

    @Test
    void beyondTheSourcesKeptTheQuietestIsForgottenAndWhatItHeldBackCountedAsLost() {
        RefusalThrottle throttle = throttle(3, 50);
        throttle.offer(wrongKey("10.0.0.1"));
        throttle.offer(wrongKey("10.0.0.1"));
        throttle.offer(wrongKey("10.0.0.2"));
        throttle.offer(wrongKey("10.0.0.3"));
        throttle.offer(wrongKey("10.0.0.2"));
        throttle.offer(wrongKey("10.0.0.3"));

        throttle.offer(wrongKey("10.0.0.4"));

        assertThat(throttle.lost()).isEqualTo(1);
        // 10.0.0.1 was forgotten; 10.0.0.2 is still in its window.
        assertThat(throttle.offer(wrongKey("10.0.0.1"))).isNotNull();
        assertThat(throttle.offer(wrongKey("10.0.0.4"))).isNull();
    }
}
