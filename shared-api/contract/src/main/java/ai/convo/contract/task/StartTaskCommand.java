package ai.convo.contract.task;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * A runner starts attempt {@code attempt} of a task: the first from {@code queued}, a later one when it took over an
 * {@code active} task whose runner stopped renewing its lease. The attempt number fences off an earlier runner.
 */
public record StartTaskCommand(
        @TargetAggregateIdentifier TaskId taskId,
        String runnerId,
        int attempt,
        long at) {
}
