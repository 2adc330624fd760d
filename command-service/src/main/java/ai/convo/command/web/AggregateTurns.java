package ai.convo.command.web;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/**
 * Commands to one aggregate take turns here, in front of the command bus, and hold nothing while they wait: no thread,
 * no transaction, no pooled connection. The command bus opens a command's transaction (and takes its connection)
 * before the repository takes the aggregate's lock, so twenty requests on one aggregate sent straight to it held all
 * pooled connections waiting for that lock, and every other organisation's command waited for a connection (issue
 * 37, finding 4). Queued here, the twenty run one after another, each deciding on what the one before left, while
 * commands of other aggregates pass at once. First come, first served; each waiting command costs one future.
 */
final class AggregateTurns {

    /** Per aggregate, the turn of its newest command: done when that command has ended. */
    private final ConcurrentHashMap<String, CompletableFuture<Void>> newest = new ConcurrentHashMap<>();

    /**
     * Runs {@code work} once every command sent to {@code aggregateId} before it has ended: on {@code alone} when
     * none is running, else on {@code after} once the last of them ended. Without an aggregate, at once on
     * {@code alone}.
     */
    <T> CompletableFuture<T> run(String aggregateId, Supplier<T> work, Executor alone, Executor after) {
        if (aggregateId == null) {
            return CompletableFuture.supplyAsync(work, alone);
        }
        CompletableFuture<Void> turn = new CompletableFuture<>();
        CompletableFuture<Void> previous = newest.put(aggregateId, turn);
        CompletableFuture<T> result = new CompletableFuture<>();
        if (previous == null) {
            start(work, alone, result);
        } else {
            previous.whenComplete((ended, error) -> start(work, after, result));
        }
        result.whenComplete((value, error) -> {
            newest.remove(aggregateId, turn);
            turn.complete(null);
        });
        return result;
    }

    /**
     * Hands {@code work} to {@code executor}; the result completes whatever happens, so an executor that refuses the
     * work (now, or later when the turn before ends) never leaves the aggregate's later commands waiting for ever.
     */
    private static <T> void start(Supplier<T> work, Executor executor, CompletableFuture<T> result) {
        try {
            executor.execute(() -> {
                try {
                    result.complete(work.get());
                } catch (Throwable failed) {
                    result.completeExceptionally(failed);
                }
            });
        } catch (RuntimeException rejected) {
            result.completeExceptionally(rejected);
        }
    }

    /** How many aggregates have a command running or waiting. */
    int busy() {
        return newest.size();
    }
}
