package ai.convo.query.consistency;

import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * Readiness of a query replica: ready once every projection has processed the event log as it stood when the
 * replica first asked (at start, by its launcher or orchestrator), and ready from then on. Until then reads would
 * only wait, so a load balancer should not send them here. {@code /health} stays liveness.
 */
@RestController
class ReadinessController {

    private final ProjectionProgress progress;
    private final DatabaseClient db;
    private final AtomicLong head = new AtomicLong(-1);
    private volatile boolean ready;

    public ReadinessController(ProjectionProgress progress, DatabaseClient db) {
        this.progress = progress;
        this.db = db;
    }

    @GetMapping(value = "/health/ready", produces = MediaType.APPLICATION_JSON_VALUE)
    public Mono<ResponseEntity<Map<String, Object>>> ready() {
        if (ready) {
            return Mono.just(ResponseEntity.ok(Map.of("status", "UP")));
        }
        Mono<Long> target = head.get() >= 0 ? Mono.just(head.get())
                : db.sql("SELECT coalesce(max(global_index), 0) AS head FROM domain_event_entry")
                        .map(row -> row.get("head", Long.class)).one()
                        .doOnNext(found -> head.compareAndSet(-1, found))
                        .map(found -> head.get());
        return target.flatMap(position -> progress.reached(position).map(reached -> {
            if (reached) {
                ready = true;
                return ResponseEntity.ok(Map.<String, Object>of("status", "UP"));
            }
            return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).body(Map.<String, Object>of(
                    "status", "CATCHING_UP", "eventPosition", position, "processedUpTo", progress.safe()));
        }));
    }
}
