package ai.convo.persistence;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Background work run every {@code interval} on a daemon thread of its own, from start to stop of the application.
 * A failed run is logged (once per run of failures, however short the interval) and the next one comes as usual:
 * such work must be safe to repeat.
 */
public abstract class Periodic implements SmartLifecycle {

    private final Logger log = LoggerFactory.getLogger(getClass());
    private final String name;
    private final Duration interval;
    private ScheduledExecutorService timer;
    private volatile boolean failing;

    protected Periodic(String name, Duration interval) {
        this.name = name;
        this.interval = interval;
    }

    /** One run of the work. */
    protected abstract void runOnce() throws Exception;

    @Override
    public synchronized void start() {
        timer = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        });
        timer.scheduleWithFixedDelay(() -> {
            try {
                runOnce();
                if (failing) {
                    failing = false;
                    log.info("{} works again", name);
                }
            } catch (Exception e) {
                if (!failing) {
                    failing = true;
                    log.warn("{} failed; it runs again every {} ms: {}", name, interval.toMillis(), e.toString());
                }
            }
        }, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public synchronized void stop() {
        if (timer != null) {
            timer.shutdownNow();
            timer = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return timer != null;
    }
}
