package ai.convo.query.eventlog;

import ai.convo.query.consistency.ConsistencyChannel;
import ai.convo.persistence.EventNotifications;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.stereotype.Component;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;
import reactor.core.scheduler.Schedulers;

/**
 * Follows an organisation's log: reads what lies after the last position it sent whenever the log of that
 * organisation grows (a notification from the database, whichever replica wrote it), and once a second in case a
 * notification was missed. Positions of an organisation only ever commit in order, so reading "after the last one
 * sent" never skips an event and never repeats one, across reconnects too (Last-Event-ID).
 */
@Component
class EventLogTail {

    private static final int BATCH = 500;
    private static final String PREFIX = "eventlog:";

    private final EventLogReader reader;
    private final Sinks.Many<String> grown = Sinks.many().multicast().directBestEffort();

    public EventLogTail(EventLogReader reader, ConsistencyChannel notifications) {
        this.reader = reader;
        notifications.subscribe(new EventNotifications.ChangeListener() {
            @Override
            public void changed(String channel, String payload) {
                if (payload != null && payload.startsWith(PREFIX)) {
                    synchronized (grown) {
                        grown.tryEmitNext(payload.substring(PREFIX.length()));
                    }
                }
            }

            @Override
            public void listening(boolean listening) {
                // while not listening, the once-a-second read still follows the log
            }
        });
    }

    /** The query's events from its position on, and every later one as it comes, until the subscriber cancels. */
    public Flux<EventLogReader.Line> follow(LogQuery query, Duration poll) {
        AtomicLong last = new AtomicLong(query.after());
        Flux<Boolean> wakeUps = Flux.merge(
                        Mono.just(Boolean.TRUE),
                        grown.asFlux().filter(query.organisationId()::equals).map(org -> Boolean.TRUE),
                        Flux.interval(poll).map(tick -> Boolean.TRUE))
                .onBackpressureLatest();
        return wakeUps.concatMap(wakeUp -> drain(query, last), 1);
    }

    private Flux<EventLogReader.Line> drain(LogQuery query, AtomicLong last) {
        return read(query, last)
                .expand(lines -> lines.size() == BATCH ? read(query, last) : Mono.empty())
                // one batch at a time: a client that reads slowly holds a batch or two, not the log
                .concatMapIterable(lines -> lines, 1);
    }

    private Mono<List<EventLogReader.Line>> read(LogQuery query, AtomicLong last) {
        return Mono.fromCallable(() -> {
            List<EventLogReader.Line> lines = reader.batch(query.after(last.get()), BATCH);
            if (!lines.isEmpty()) {
                last.set(lines.get(lines.size() - 1).position());
            }
            return lines;
        }).subscribeOn(Schedulers.boundedElastic());
    }
}
