package ai.convo.persistence;

import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Background work that drains a backlog on a daemon thread of its own, from start to stop of the application: it
 * works while work is waiting, then sleeps {@code interval}. A failure is logged and the backlog is tried again after
 * the sleep, so such work must be safe to repeat. ({@link Periodic} runs on a clock instead, backlog or not.)
 */
public abstract class Backlog implements SmartLifecycle {

    private final Logger log = LoggerFactory.getLogger(getClass());
    private final String name;
    private final Duration interval;
    private volatile Thread worker;
    private volatile boolean running;

    protected Backlog(String name, Duration interval) {
        this.name = name;
        this.interval = interval;
    }

    /** Does one piece of the backlog; answers whether more may be waiting. */
    protected abstract boolean workOnce();

    /** Called after each drained backlog, before the sleep. */
    protected void drained() {
    }

    @Override
    public synchronized void start() {
        if (running) {
            return;
        }
        running = true;
        Thread thread = new Thread(this::loop, name);
        thread.setDaemon(true);
        worker = thread;
        thread.start();
    }

    @Override
    public synchronized void stop() {
        running = false;
        Thread thread = worker;
        worker = null;
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(Duration.ofSeconds(10).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    private void loop() {
        while (running) {
            try {
                boolean more;
                do {
                    more = workOnce();
                } while (running && more);
                drained();
            } catch (RuntimeException e) {
                log.warn("{} failed; its backlog is tried again in {} ms: {}", name, interval.toMillis(), e.toString(), e);
            }
            try {
                Thread.sleep(interval.toMillis());
            } catch (InterruptedException e) {
                return;
            }
        }
    }
}
