package ai.convo.persistence;

import java.time.Duration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.ReactiveHealthIndicator;
import org.springframework.jdbc.core.JdbcTemplate;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Readiness (management port, health group {@code readiness}): the primary answers a query within 2 s through the
 * service's own pool. A service whose database is away is alive but not ready: it answers 503 with Retry-After.
 */
public class DatabaseHealth implements ReactiveHealthIndicator {

    static final Duration WITHIN = Duration.ofSeconds(2);

    private final JdbcTemplate jdbc;

    public DatabaseHealth(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @Override
    public Mono<Health> health() {
        return Mono.fromCallable(() -> jdbc.queryForObject("SELECT 1", Integer.class))
                .subscribeOn(Schedulers.boundedElastic())
                .timeout(WITHIN)
                .map(one -> Health.up().build())
                .onErrorResume(e -> Mono.just(Health.down().withDetail("reason", e.getClass().getSimpleName()).build()));
    }
}
