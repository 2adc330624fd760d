package ai.convo.command.task;

import ai.convo.command.web.DecidingAgain;
import ai.convo.command.web.Clock;
import ai.convo.contract.common.Actor;
import ai.convo.contract.common.DomainException;
import ai.convo.contract.identity.Role;
import ai.convo.contract.project.ProjectId;
import ai.convo.contract.task.CompleteTaskCommand;
import ai.convo.contract.task.ConfirmTaskCancelledCommand;
import ai.convo.contract.task.FailTaskCommand;
import ai.convo.contract.task.RecordTaskProgressCommand;
import ai.convo.contract.task.StartTaskCommand;
import ai.convo.contract.task.TaskId;
import ai.convo.contract.task.TaskRecord;
import ai.convo.contract.task.TaskStatus;
import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.axonframework.commandhandling.CommandExecutionException;
import org.axonframework.commandhandling.gateway.CommandGateway;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs queued tasks; one per command-service process. It polls {@code task_run} (and is woken when this process creates
 * or cancels a task), claims the oldest claimable task with a lease, starts it, runs its {@link TaskWork} on a bounded
 * pool and ends it. A heartbeat renews the leases of the running tasks, so a step may take longer than a lease; a
 * runner that dies stops renewing, and after the lease expires another runner (or this process after a restart) takes
 * the task over: it runs the work again from the start (work is all-or-nothing or idempotent) up to {@code maxAttempts}
 * starts, then ends the task {@code error}. A dead runner's task is thus taken over within lease + poll interval.
 */
class TaskRunner {

    /** Timings and sizes; tests use short leases. */
    record Settings(long leaseMillis, long pollMillis, int threads, int maxAttempts, long shutdownGraceMillis,
                    int longThreads, int longPerOrganisation) {
        public Settings {
            if (leaseMillis < 100 || pollMillis < 10 || threads < 1 || maxAttempts < 1 || longThreads < 1
                    || longPerOrganisation < 1) {
                throw new IllegalArgumentException("task runner settings out of range: " + leaseMillis + " ms lease, "
                        + pollMillis + " ms poll, " + threads + " threads, " + maxAttempts + " attempts, "
                        + longThreads + " long-running threads, " + longPerOrganisation + " per organisation");
            }
        }

        Settings(long leaseMillis, long pollMillis, int threads, int maxAttempts, long shutdownGraceMillis) {
            this(leaseMillis, pollMillis, threads, maxAttempts, shutdownGraceMillis, 4, 2);
        }
    }

    static final String GENERIC_FAILURE = "The task stopped on an unexpected error; the operator's logs have the "
            + "details under this task's id.";

    private static final Logger log = LoggerFactory.getLogger(TaskRunner.class);
    private static final AtomicInteger INSTANCES = new AtomicInteger();

    private final String runnerId;
    private final TaskRuns runs;
    private final CommandGateway gateway;
    private final Map<String, TaskWork> works;
    private final Settings settings;
    private final ScheduledExecutorService timer;
    private final ExecutorService workers;
    private final ExecutorService reporters;
    private final Semaphore slots;
    /** Threads of the long-running lane ({@link TaskWork#longRunning}). */
    private final Semaphore longSlots;
    private final TaskRuns.Lane shortLane;
    private final TaskRuns.Lane longLane;
    private final Set<Run> running = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean pollPending = new AtomicBoolean();
    private volatile boolean stopped;
    private volatile boolean dead;

    /** Tasks running on this runner now (a metric). */
    int runningCount() {
        return running.size();
    }

    TaskRunner(TaskRuns runs, CommandGateway gateway, Collection<TaskWork> works, Settings settings) {
        this.runnerId = ManagementFactory.getRuntimeMXBean().getName() + "/" + INSTANCES.incrementAndGet() + "/"
                + Long.toHexString(System.nanoTime());
        this.runs = runs;
        this.gateway = gateway;
        this.works = byType(works);
        this.settings = settings;
        int instance = INSTANCES.get();
        this.timer = Executors.newScheduledThreadPool(2, threads("task-timer-" + instance));
        int all = settings.threads() + settings.longThreads();
        this.workers = Executors.newFixedThreadPool(all, threads("task-worker-" + instance));
        this.reporters = Executors.newFixedThreadPool(all, threads("task-report-" + instance));
        this.slots = new Semaphore(settings.threads());
        this.longSlots = new Semaphore(settings.longThreads());
        java.util.Set<String> longTypes = this.works.values().stream().filter(TaskWork::longRunning)
                .map(TaskWork::type).collect(java.util.stream.Collectors.toUnmodifiableSet());
        java.util.Set<String> onePerOrganisation = this.works.values().stream().filter(TaskWork::onePerOrganisation)
                .map(TaskWork::type).collect(java.util.stream.Collectors.toUnmodifiableSet());
        this.shortLane = new TaskRuns.Lane(longTypes, false, Integer.MAX_VALUE, onePerOrganisation);
        this.longLane = longTypes.isEmpty() ? null
                : new TaskRuns.Lane(longTypes, true, settings.longPerOrganisation(), onePerOrganisation);
    }

    private static Map<String, TaskWork> byType(Collection<TaskWork> works) {
        Map<String, TaskWork> byType = new HashMap<>();
        for (TaskWork work : works) {
            TaskWork other = byType.put(work.type(), work);
            if (other != null) {
                throw new IllegalStateException("Two TaskWork beans handle type '" + work.type() + "': "
                        + other.getClass().getName() + " and " + work.getClass().getName());
            }
        }
        return Map.copyOf(byType);
    }

    private static ThreadFactory threads(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, prefix + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    public String runnerId() {
        return runnerId;
    }

    public void start() {
        timer.scheduleWithFixedDelay(this::poll, 0, settings.pollMillis(), TimeUnit.MILLISECONDS);
        long beat = Math.max(50, settings.leaseMillis() / 3);
        timer.scheduleWithFixedDelay(this::heartbeat, beat, beat, TimeUnit.MILLISECONDS);
        log.info("Task runner {} started: lease {} ms, poll {} ms, {} threads (+{} long-running, {} per organisation), "
                + "{} attempts, works {}", runnerId, settings.leaseMillis(), settings.pollMillis(), settings.threads(),
                settings.longThreads(), settings.longPerOrganisation(), settings.maxAttempts(), works.keySet());
    }

    /** Looks for work now instead of at the next poll, e.g. after this process created a task. */
    public void wake() {
        if (!stopped && pollPending.compareAndSet(false, true)) {
            try {
                timer.execute(() -> {
                    pollPending.set(false);
                    poll();
                });
            } catch (RejectedExecutionException stopping) {
                pollPending.set(false);
            }
        }
    }

    /**
     * Stops claiming and waits a while for running work. Leases are not given back: work still running when the JVM
     * exits must not overlap a takeover, so another runner takes over after the lease expires.
     */
    public void stop() {
        stopped = true;
        timer.shutdownNow();
        workers.shutdown();
        try {
            if (!workers.awaitTermination(settings.shutdownGraceMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("Task runner {} stopped with {} tasks still running; another runner takes them over when "
                        + "their leases expire", runnerId, running.size());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        // not shutdownNow: interrupting a command mid-commit only confuses Axon; later reports are refused anyway
        reporters.shutdown();
    }

    /** Stops at once as a killed process would: no lease renewed or given back, nothing more reported. For tests. */
    void kill() {
        dead = true;
        stopped = true;
        timer.shutdownNow();
        reporters.shutdown();
    }

    // ---- claiming

    private synchronized void poll() {
        if (stopped) {
            return;
        }
        try {
            claimInto(slots, shortLane);
            if (longLane != null) {
                claimInto(longSlots, longLane);
            }
        } catch (RuntimeException | Error e) {
            log.error("Task runner {} poll failed", runnerId, e);
        }
    }

    /** Claims tasks of the lane while it has free threads. */
    private void claimInto(Semaphore lane, TaskRuns.Lane which) {
        while (!stopped && lane.tryAcquire()) {
            Optional<TaskRuns.Claim> claim;
            try {
                claim = runs.claim(runnerId, settings.leaseMillis(), which);
            } catch (RuntimeException e) {
                lane.release();
                log.warn("Task runner {} could not claim a task: {}", runnerId, e.toString());
                return;
            }
            if (claim.isEmpty()) {
                lane.release();
                return;
            }
            TaskRuns.Claim claimed = claim.get();
            try {
                workers.execute(() -> {
                    try {
                        handle(claimed);
                    } finally {
                        lane.release();
                        wake();
                    }
                });
            } catch (RejectedExecutionException stopping) {
                // the lease expires and another runner takes the task
                lane.release();
                return;
            }
        }
    }

    private void heartbeat() {
        for (Run run : running) {
            if (run.lost) {
                continue;
            }
            try {
                Optional<TaskRuns.State> state = runs.renew(run.claim.taskId(), runnerId, settings.leaseMillis());
                if (state.isEmpty() && endedByThisRun(run)) {
                    continue;
                }
                if (state.isEmpty() || state.get().attempts() != run.attempt) {
                    run.lost = true;
                    log.warn("Task runner {} lost task {} (attempt {}) to another runner", runnerId, run.claim.taskId(),
                            run.attempt);
                } else if (state.get().status() == TaskStatus.cancelling) {
                    run.cancelRequested = true;
                }
            } catch (RuntimeException e) {
                log.warn("Task runner {} could not renew the lease of task {}: {}", runnerId, run.claim.taskId(),
                        e.toString());
            }
        }
    }

    /** The run ended its task a moment ago (it is still in {@link #running} until its thread tidies up). */
    private boolean endedByThisRun(Run run) {
        Optional<TaskRuns.State> state = runs.stateOf(run.claim.taskId());
        return state.isPresent() && state.get().status().terminal() && state.get().attempts() == run.attempt;
    }

    // ---- one claimed task

    private void handle(TaskRuns.Claim claim) {
        TaskId taskId = TaskId.of(claim.taskId());
        try {
            if (claim.status() == TaskStatus.cancelling) {
                // cancelled before it started, or its runner died while it was being cancelled: nothing runs any more
                send(new ConfirmTaskCancelledCommand(taskId, claim.attempts(), Clock.nowSeconds()));
                return;
            }
            if (claim.status() == TaskStatus.active && claim.attempts() >= settings.maxAttempts()) {
                String reason = "The runner stopped responding " + claim.attempts() + " times (process stopped or "
                        + "unreachable); the task was given up.";
                endFailed(taskId, claim.attempts(), reason);
                TaskWork work = works.get(claim.type());
                if (work != null) {
                    work.givenUp(claim.taskId(), claim.parameters(), reason);
                }
                return;
            }
            int attempt = claim.attempts() + 1;
            try {
                send(new StartTaskCommand(taskId, runnerId, attempt, Clock.nowSeconds()));
            } catch (DomainException refused) {
                afterRefusedStart(claim);
                return;
            }
            TaskWork work = works.get(claim.type());
            if (work == null) {
                endFailed(taskId, attempt, "No worker for task type '" + claim.type() + "' in this version of the "
                        + "service.");
                return;
            }
            execute(work, new Run(claim, attempt));
        } catch (TaskLeaseLostException lost) {
            log.debug("Task runner {} gave up task {}: lease lost", runnerId, claim.taskId());
        } catch (RuntimeException e) {
            // the lease expires and another runner takes the task over
            log.warn("Task runner {} left task {} for another attempt: {}", runnerId, claim.taskId(), e.toString());
        }
    }

    private void execute(TaskWork work, Run run) {
        TaskId taskId = TaskId.of(run.claim.taskId());
        running.add(run);
        try {
            work.run(run);
            if (!run.lost) {
                endDone(taskId, run.attempt);
            }
        } catch (TaskLeaseLostException lost) {
            log.info("Task runner {} stopped task {}: another runner took it over", runnerId, taskId);
        } catch (TaskCancelledException cancelled) {
            if (!run.lost) {
                send(new ConfirmTaskCancelledCommand(taskId, run.attempt, Clock.nowSeconds()));
            }
        } catch (TaskFailedException failed) {
            if (!run.lost) {
                endFailed(taskId, run.attempt, reason(failed.getMessage()));
            }
        } catch (Exception | StackOverflowError | LinkageError unexpected) {
            if (dead) {
                return;
            }
            log.warn("Task {} of type {} failed on attempt {}", taskId, run.claim.type(), run.attempt, unexpected);
            if (!run.lost) {
                endFailed(taskId, run.attempt, GENERIC_FAILURE);
            }
        } finally {
            running.remove(run);
        }
    }

    /** The start was refused: the task was cancelled meanwhile (then it never runs), or another runner has it. */
    private void afterRefusedStart(TaskRuns.Claim claim) {
        Optional<TaskRuns.State> state = runs.stateOf(claim.taskId());
        if (state.isPresent() && state.get().status() == TaskStatus.cancelling
                && state.get().attempts() == claim.attempts()) {
            send(new ConfirmTaskCancelledCommand(TaskId.of(claim.taskId()), claim.attempts(), Clock.nowSeconds()));
        }
    }

    /** A cancel requested after the work's last step wins: the task moves only along cancelling -> cancelled then. */
    private void endDone(TaskId taskId, int attempt) {
        try {
            send(new CompleteTaskCommand(taskId, attempt, Clock.nowSeconds()));
        } catch (DomainException refused) {
            confirmIfCancelling(taskId, attempt, refused);
        }
    }

    private void endFailed(TaskId taskId, int attempt, String reason) {
        try {
            send(new FailTaskCommand(taskId, attempt, reason, Clock.nowSeconds()));
        } catch (DomainException refused) {
            confirmIfCancelling(taskId, attempt, refused);
        }
    }

    private void confirmIfCancelling(TaskId taskId, int attempt, DomainException refused) {
        Optional<TaskRuns.State> state = runs.stateOf(taskId.value());
        if (state.isPresent() && state.get().status() == TaskStatus.cancelling && state.get().attempts() == attempt) {
            send(new ConfirmTaskCancelledCommand(taskId, attempt, Clock.nowSeconds()));
        } else {
            throw refused;
        }
    }

    private static String reason(String message) {
        if (message == null || message.isBlank()) {
            return GENERIC_FAILURE;
        }
        return message.length() > TaskRecord.MAX_FAIL_REASON_LENGTH
                ? message.substring(0, TaskRecord.MAX_FAIL_REASON_LENGTH - 3) + "..." : message;
    }

    /** Sends a command and waits; a refused one surfaces as its {@link DomainException}. */
    private <R> R send(Object command) {
        if (dead) {
            throw new TaskLeaseLostException();
        }
        try {
            // the reporter thread and this one both write the task: one may append first
            return DecidingAgain.run(() -> gateway.<R>sendAndWait(command));
        } catch (CommandExecutionException e) {
            throw e.getCause() instanceof DomainException domain ? domain : e;
        }
    }

    /**
     * Sends from a reporter thread: the work may call its context inside its own transaction or unit of work, and the
     * progress must commit at once, on its own, whatever the work later does.
     */
    private <R> R report(Callable<R> call) {
        if (dead) {
            throw new TaskLeaseLostException();
        }
        try {
            return reporters.submit(call).get();
        } catch (RejectedExecutionException stopping) {
            throw new TaskLeaseLostException();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TaskLeaseLostException();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IllegalStateException(e.getCause());
        }
    }

    /** The context of one attempt, handed to the work. */
    private final class Run implements TaskContext {

        final TaskRuns.Claim claim;
        final int attempt;
        private final Actor actor;
        private final ProjectId projectId;
        volatile boolean lost;
        volatile boolean cancelRequested;

        Run(TaskRuns.Claim claim, int attempt) {
            this.claim = claim;
            this.attempt = attempt;
            this.actor = new Actor(claim.createdBy(), claim.organisationId(), Role.valueOf(claim.creatorRole()));
            this.projectId = ProjectId.of(claim.projectId());
        }

        @Override
        public TaskId taskId() {
            return TaskId.of(claim.taskId());
        }

        @Override
        public ProjectId projectId() {
            return projectId;
        }

        @Override
        public Map<String, Object> parameters() {
            return claim.parameters();
        }

        @Override
        public Actor actor() {
            return actor;
        }

        @Override
        public void totalSteps(int total) {
            progress(null, total);
        }

        @Override
        public void stepDone(int current) {
            if (progress(current, null) == TaskStatus.cancelling) {
                cancelRequested = true;
                throw new TaskCancelledException();
            }
        }

        @Override
        public boolean cancelRequested() {
            if (lost || dead) {
                return true;
            }
            if (!cancelRequested) {
                Optional<TaskRuns.State> state = report(() -> runs.stateOf(claim.taskId()));
                cancelRequested = state.isEmpty() || state.get().status() == TaskStatus.cancelling;
            }
            return cancelRequested;
        }

        private TaskStatus progress(Integer current, Integer total) {
            if (lost) {
                throw new TaskLeaseLostException();
            }
            try {
                return report(() -> send(new RecordTaskProgressCommand(TaskId.of(claim.taskId()), attempt, current,
                        total, Clock.nowSeconds())));
            } catch (DomainException refused) {
                if (refused.kind() == DomainException.Kind.CONFLICT) {
                    // superseded by a takeover: this attempt no longer owns the task
                    lost = true;
                    throw new TaskLeaseLostException();
                }
                throw new TaskFailedException("The task reported impossible progress: " + refused.getMessage());
            }
        }
    }
}
