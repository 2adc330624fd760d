package ai.convo.query.deadletter;

import ai.convo.persistence.CarefulProjections;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.axonframework.config.EventProcessingConfiguration;
import org.axonframework.eventhandling.EventMessage;
import org.axonframework.eventhandling.deadletter.jdbc.JdbcDeadLetter;
import org.axonframework.messaging.deadletter.DeadLetter;
import org.axonframework.messaging.deadletter.SequencedDeadLetterProcessor;
import org.axonframework.messaging.deadletter.SequencedDeadLetterQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Component;

/**
 * Tries parked sequences again: each on its own, its first event's attempts spaced {@code retry-base} × 2^retries (at
 * most {@code retry-max}), so an event that will never apply costs a few statements an hour instead of a core; and
 * does what system administrators asked ({@code dead_letter_request}): a retry at once, or an eviction. Once a second
 * it also reads which sequences are parked ({@link ParkedSequences}).
 */
@Component
class DeadLetterRetrier implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(DeadLetterRetrier.class);

    private static final String CLAIM = "UPDATE dead_letter_request SET status = 'running' WHERE id = (SELECT id "
            + "FROM dead_letter_request WHERE status = 'requested' ORDER BY requested_at LIMIT 1 FOR UPDATE SKIP LOCKED) "
            + "RETURNING id, action, processing_group, sequence_identifier, requested_by";

    private final EventProcessingConfiguration processing;
    private final ParkedSequences parked;
    private final JdbcTemplate jdbc;
    private final Duration base;
    private final Duration max;
    private final long pollMillis;
    private ScheduledExecutorService timer;
    private volatile boolean running;

    DeadLetterRetrier(EventProcessingConfiguration processing, ParkedSequences parked, JdbcTemplate jdbc,
                      @Value("${app.deadletters.retry-base:5s}") Duration base,
                      @Value("${app.deadletters.retry-max:15m}") Duration max,
                      @Value("${app.deadletters.poll:1s}") Duration poll) {
        this.processing = processing;
        this.parked = parked;
        this.jdbc = jdbc;
        this.base = base;
        this.max = max;
        this.pollMillis = poll.toMillis();
    }

    @Override
    public void start() {
        running = true;
        timer = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "dead-letters");
            thread.setDaemon(true);
            return thread;
        });
        timer.scheduleWithFixedDelay(this::tick, pollMillis, pollMillis, TimeUnit.MILLISECONDS);
    }

    @Override
    public void stop() {
        running = false;
        if (timer != null) {
            timer.shutdownNow();
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    void tick() {
        try {
            parked.refresh();
            requests();
            due();
        } catch (RuntimeException e) {
            // the next tick tries again (the database may be away for a moment)
            log.warn("Dead letters: {}", e.getMessage());
        }
    }

    /** Does the administrators' requests, oldest first. */
    private void requests() {
        while (running) {
            List<Map<String, Object>> claimed = jdbc.queryForList(CLAIM);
            if (claimed.isEmpty()) {
                return;
            }
            Map<String, Object> request = claimed.get(0);
            String id = (String) request.get("id");
            String group = (String) request.get("processing_group");
            String sequence = (String) request.get("sequence_identifier");
            String status;
            String outcome;
            try {
                if ("evict".equals(request.get("action"))) {
                    outcome = evict(group, sequence);
                } else {
                    outcome = retry(group, sequence);
                }
                status = "done";
            } catch (RuntimeException e) {
                status = "failed";
                outcome = ParkingPolicy.cause(e).type() + ": " + ParkingPolicy.cause(e).message();
            }
            log.info("Dead letters: {} of {} sequence {} (request {}): {}", request.get("action"), group, sequence, id,
                    outcome);
            if ("done".equals(status) && !outcome.equals("nothing parked")) {
                parked.audit(outcome.equals("applied") ? "applied" : outcome.startsWith("evicted") ? "evicted"
                                : "still-parked", group, sequence, null, null, null, "request " + id + ": " + outcome,
                        (String) request.get("requested_by"));
            }
            jdbc.update("UPDATE dead_letter_request SET status = ?, outcome = ?, finished_at = now() WHERE id = ?",
                    status, outcome, id);
        }
    }

    /** Tries the sequence now, whatever its back-off; answers what became of it. */
    String retry(String group, String sequence) {
        SequencedDeadLetterQueue<EventMessage<?>> queue = queue(group);
        if (!queue.contains(sequence)) {
            return "nothing parked";
        }
        boolean applied = careful(() -> processor(group).process(letter -> sequence.equals(sequenceOf(letter))));
        if (applied && !queue.contains(sequence)) {
            parked.removed(group, sequence);
            return "applied";
        }
        String cause = "";
        for (DeadLetter<? extends EventMessage<?>> letter : queue.deadLetterSequence(sequence)) {
            cause = letter.cause().map(c -> ": " + c.type() + ": " + c.message()).orElse("");
            break;
        }
        return "still parked" + cause;
    }

    /** Drops the sequence's parked events from the projection (a rebuild applies them again); answers how many. */
    String evict(String group, String sequence) {
        SequencedDeadLetterQueue<EventMessage<?>> queue = queue(group);
        int evicted = 0;
        for (DeadLetter<? extends EventMessage<?>> letter : queue.deadLetterSequence(sequence)) {
            queue.evict(letter);
            evicted++;
        }
        parked.removed(group, sequence);
        if (evicted > 0) {
            log.warn("Dead letters: evicted {} events of {} sequence {}; the projection lacks them until a rebuild",
                    evicted, group, sequence);
        }
        return evicted == 0 ? "nothing parked" : "evicted " + evicted + " events";
    }

    /** One sequence per group whose next attempt is due, each tick. */
    private void due() {
        Instant now = Instant.now();
        for (String group : parked.all().stream().map(ParkedSequences.Parked::group).distinct().toList()) {
            Optional<SequencedDeadLetterProcessor<EventMessage<?>>> processor =
                    processing.sequencedDeadLetterProcessor(group);
            if (processor.isEmpty() || !running) {
                continue;
            }
            List<String> tried = new java.util.ArrayList<>();
            boolean applied = careful(() -> processor.get().process(letter -> {
                if (!due(letter, now)) {
                    return false;
                }
                tried.add(sequenceOf(letter));
                return true;
            }));
            tried.forEach(sequence -> {
                if (applied) {
                    log.info("Dead letters: {} sequence {} applied on retry", group, sequence);
                    parked.removed(group, sequence);
                    parked.audit("applied", group, sequence, null, null, null, "tried again after its back-off", null);
                }
            });
        }
    }

    boolean due(DeadLetter<? extends EventMessage<?>> letter, Instant now) {
        long retries = ParkingPolicy.retries(letter.diagnostics());
        long wait = Math.min(max.toMillis(), base.toMillis() << Math.min(retries, 30));
        return !letter.lastTouched().plusMillis(wait).isAfter(now);
    }

    private SequencedDeadLetterQueue<EventMessage<?>> queue(String group) {
        return processing.deadLetterQueue(group).orElseThrow(() -> new IllegalArgumentException(
                "There is no processing group " + group + " with a dead-letter queue"));
    }

    private SequencedDeadLetterProcessor<EventMessage<?>> processor(String group) {
        return processing.sequencedDeadLetterProcessor(group).orElseThrow(() -> new IllegalArgumentException(
                "There is no processing group " + group + " with a dead-letter queue"));
    }

    static String sequenceOf(DeadLetter<?> letter) {
        return letter instanceof JdbcDeadLetter<?> jdbcLetter ? jdbcLetter.getSequenceIdentifier() : null;
    }

    private static boolean careful(java.util.concurrent.Callable<Boolean> work) {
        try {
            return CarefulProjections.during(work);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
