package ai.convo.command.task;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.function.ToLongFunction;
import org.springframework.beans.factory.ObjectProvider;

/**
 * The task runners' work, as an operator sees it: {@code convo_tasks_open{state}} over every replica (queued: waiting
 * for a runner, its lease free or expired; leased: a runner holds it) and {@code convo_tasks_running} on this replica.
 * The counts are read from {@code task_run} when scraped, at most once a second.
 */
class TaskMetrics implements MeterBinder {

    private final TaskRuns runs;
    private final ObjectProvider<TaskRunner> runner;
    private volatile long[] counts = {0, 0};
    private volatile long countedAt;

    TaskMetrics(TaskRuns runs, ObjectProvider<TaskRunner> runner) {
        this.runs = runs;
        this.runner = runner;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        open(registry, "queued", counts -> counts[0]);
        open(registry, "leased", counts -> counts[1]);
        Gauge.builder("convo.tasks.running", this, metrics -> {
                    TaskRunner here = metrics.runner.getIfAvailable();
                    return here == null ? 0 : here.runningCount();
                })
                .description("Tasks this replica's runner is running now (at most app.tasks.threads)")
                .register(registry);
    }

    private void open(MeterRegistry registry, String state, ToLongFunction<long[]> count) {
        Gauge.builder("convo.tasks.open", this, metrics -> count.applyAsLong(metrics.counts()))
                .tag("state", state)
                .description("Unfinished tasks of every replica: queued (no live lease) or leased (a runner holds it)")
                .register(registry);
    }

    private long[] counts() {
        long now = System.nanoTime();
        if (now - countedAt > 1_000_000_000L) {
            counts = runs.openCounts();
            countedAt = now;
        }
        return counts;
    }
}
