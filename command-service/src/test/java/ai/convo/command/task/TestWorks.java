package ai.convo.command.task;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.stereotype.Component;

/**
 * Work types for tests only (test sources, so never in the service): they record every run, so tests can tell which
 * runner ran what, how often, and whether two runs of one project ever overlapped.
 */
public final class TestWorks {

    /** One run of a work: task, runner thread, attempt order. */
    public record RunRecord(String taskId, String projectId, String thread, long startedNanos, long endedNanos) {
    }

    public static final List<RunRecord> RUNS = new CopyOnWriteArrayList<>();
    public static final Map<String, AtomicInteger> STARTS = new ConcurrentHashMap<>();
    public static final Map<String, AtomicInteger> RUNNING_PER_PROJECT = new ConcurrentHashMap<>();
    public static final AtomicInteger OVERLAPS = new AtomicInteger();
    private static final Map<String, CountDownLatch> GATES = new ConcurrentHashMap<>();
    private static final Map<String, CountDownLatch> ARRIVED = new ConcurrentHashMap<>();

    private TestWorks() {
    }

    public static int starts(String taskId) {
        AtomicInteger count = STARTS.get(taskId);
        return count == null ? 0 : count.get();
    }

    private static CountDownLatch gate(String taskId) {
        return GATES.computeIfAbsent(taskId, id -> new CountDownLatch(1));
    }

    private static CountDownLatch arrived(String taskId) {
        return ARRIVED.computeIfAbsent(taskId, id -> new CountDownLatch(1));
    }

    /** Lets the gated work of this task go on. */
    public static void open(String taskId) {
        gate(taskId).countDown();
    }

    /** Waits until the gated work of this task has reached its gate. */
    public static boolean awaitArrival(String taskId, long millis) throws InterruptedException {
        return arrived(taskId).await(millis, TimeUnit.MILLISECONDS);
    }

    private static <T> T recorded(TaskContext context, java.util.concurrent.Callable<T> body) throws Exception {
        String task = context.taskId().value();
        String project = context.projectId().value();
        STARTS.computeIfAbsent(task, id -> new AtomicInteger()).incrementAndGet();
        AtomicInteger running = RUNNING_PER_PROJECT.computeIfAbsent(project, id -> new AtomicInteger());
        if (running.incrementAndGet() > 1) {
            OVERLAPS.incrementAndGet();
        }
        long started = System.nanoTime();
        try {
            return body.call();
        } finally {
            running.decrementAndGet();
            RUNS.add(new RunRecord(task, project, Thread.currentThread().getName(), started, System.nanoTime()));
        }
    }

    private static int number(TaskContext context, String name, int otherwise) {
        Object value = context.parameters().get(name);
        return value instanceof Number n ? n.intValue() : otherwise;
    }

    /** {@code steps} steps of {@code stepMillis} each, reporting each one. */
    @Component
    public static class Steps implements TaskWork {
        @Override
        public String type() {
            return "test-steps";
        }

        @Override
        public void run(TaskContext context) throws Exception {
            recorded(context, () -> {
                int steps = number(context, "steps", 3);
                int millis = number(context, "stepMillis", 10);
                context.totalSteps(steps);
                for (int i = 1; i <= steps; i++) {
                    Thread.sleep(millis);
                    context.stepDone(i);
                }
                return null;
            });
        }
    }

    /** Reports step 1, then waits at a gate the test opens, then reports step 2 of 2. */
    @Component
    public static class Gated implements TaskWork {
        @Override
        public String type() {
            return "test-gate";
        }

        @Override
        public void run(TaskContext context) throws Exception {
            recorded(context, () -> {
                String task = context.taskId().value();
                context.totalSteps(2);
                context.stepDone(1);
                arrived(task).countDown();
                if (!gate(task).await(60, TimeUnit.SECONDS)) {
                    throw new TaskFailedException("the test never opened the gate");
                }
                context.stepDone(2);
                return null;
            });
        }
    }

    /** Fails with the reason given in its parameters, or crashes with an internal error when there is none. */
    @Component
    public static class Failing implements TaskWork {
        @Override
        public String type() {
            return "test-fail";
        }

        @Override
        public void run(TaskContext context) throws Exception {
            recorded(context, () -> {
                Object reason = context.parameters().get("reason");
                if (reason == null) {
                    throw new IllegalStateException("internal detail: SELECT * FROM secret_table");
                }
                throw new TaskFailedException((String) reason);
            });
        }
    }
}
