package ai.convo.query.web.list;

import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.SmartLifecycle;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Component;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;

/**
 * Stored cursors live for {@code app.lists.cursor-ttl} (7 days by default): long enough for any walk through a
 * list, short enough that the table stays small. An expired cursor is a 400 that says to start again.
 */
@Component
class CursorExpiry implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(CursorExpiry.class);

    private final DatabaseClient db;
    private final Duration ttl;
    private Disposable schedule;

    public CursorExpiry(DatabaseClient db, @Value("${app.lists.cursor-ttl:P7D}") Duration ttl) {
        this.db = db;
        this.ttl = ttl;
    }

    @Override
    public void start() {
        schedule = Flux.interval(Duration.ofMinutes(1), Duration.ofHours(1))
                .concatMap(tick -> db.sql("DELETE FROM list_cursor WHERE created_at < now() - make_interval(secs => :secs)")
                        .bind("secs", (double) ttl.toSeconds())
                        .fetch().rowsUpdated()
                        .onErrorResume(e -> {
                            log.warn("Expiring old list cursors failed: {}", e.getMessage());
                            return reactor.core.publisher.Mono.just(0L);
                        }))
                .subscribe();
    }

    @Override
    public void stop() {
        if (schedule != null) {
            schedule.dispose();
        }
    }

    @Override
    public boolean isRunning() {
        return schedule != null && !schedule.isDisposed();
    }
}
