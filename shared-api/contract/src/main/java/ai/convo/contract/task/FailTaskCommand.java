package ai.convo.contract.task;

import org.axonframework.modelling.command.TargetAggregateIdentifier;

/** The running attempt failed, or its runners stopped responding too often: {@code active -> error}. */
public record FailTaskCommand(
        @TargetAggregateIdentifier TaskId taskId,
        int attempt,
        String failReason,
        long at) {
}
