package ai.convo.contract.task;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/**
 * A runner confirms that the work of a {@code cancelling} task stopped (or never started) and left nothing changed:
 * {@code cancelling -> cancelled}. {@code attempt} is the task's current attempt (0 when it never started).
 */
public record ConfirmTaskCancelledCommand(
        @TargetAggregateIdentifier TaskId taskId,
        int attempt,
        long at) {
}
